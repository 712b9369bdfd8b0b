//! The pictures as a person sees them, for tests: an SVG rendered to pixels by a real renderer
//! (resvg, without text: the checks look at fills and lines, not at glyphs), and its text read
//! back from the XML.
//!
//! Only with the `render` feature, which the puzzle crates turn on for their tests alone.

use resvg::{tiny_skia, usvg};

/// A picture rendered to pixels, one pixel per SVG unit.
#[derive(Debug, Clone)]
pub struct Rendered {
    pixmap: tiny_skia::Pixmap,
}

/// Renders `svg`.
///
/// # Panics
/// When `svg` is not well-formed XML or not an SVG document the renderer accepts.
pub fn render(svg: &str) -> Rendered {
    if let Err(err) = roxmltree::Document::parse(svg) {
        panic!("the picture is not well-formed XML: {err}");
    }
    let tree = usvg::Tree::from_str(svg, &usvg::Options::default())
        .unwrap_or_else(|err| panic!("the picture is not SVG the renderer takes: {err}"));
    let size = tree.size().to_int_size();
    let mut pixmap = tiny_skia::Pixmap::new(size.width(), size.height()).expect("a picture has pixels");
    resvg::render(&tree, tiny_skia::Transform::identity(), &mut pixmap.as_mut());
    Rendered { pixmap }
}

impl Rendered {
    /// Width and height in pixels.
    pub fn size(&self) -> (i32, i32) {
        (self.pixmap.width() as i32, self.pixmap.height() as i32)
    }

    /// The colour of the pixel at (`x`, `y`) as `#rrggbb`, as the palette writes colours.
    ///
    /// # Panics
    /// When the point is outside the picture.
    pub fn colour(&self, x: i32, y: i32) -> String {
        let pixel = u32::try_from(x)
            .ok()
            .zip(u32::try_from(y).ok())
            .and_then(|(x, y)| self.pixmap.pixel(x, y))
            .unwrap_or_else(|| panic!("({x}, {y}) is outside the picture"))
            .demultiply();
        format!("#{:02x}{:02x}{:02x}", pixel.red(), pixel.green(), pixel.blue())
    }
}

/// The content of every `<text>` element of `svg`, in document order.
///
/// # Panics
/// When `svg` is not well-formed XML.
pub fn texts(svg: &str) -> Vec<String> {
    let document = roxmltree::Document::parse(svg).expect("the picture is well-formed XML");
    document
        .descendants()
        .filter(|node| node.has_tag_name("text"))
        .map(|node| node.text().unwrap_or_default().to_owned())
        .collect()
}

/// Runs `binary` with `args` and `stdin` to its end, whatever its status.
///
/// # Panics
/// When the binary cannot be run.
pub fn output(binary: &str, args: &[&str], stdin: &[u8]) -> std::process::Output {
    use std::io::Write as _;
    use std::process::{Command, Stdio};

    let mut child = Command::new(binary)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|err| panic!("cannot run {binary}: {err}"));
    let mut input = child.stdin.take().expect("stdin is piped");
    let stdin = stdin.to_vec();
    let feeder = std::thread::spawn(move || input.write_all(&stdin));
    let output = child.wait_with_output().expect("the binary runs to its end");
    // A binary may stop reading early (bad arguments); that is its status's business.
    let _ = feeder.join();
    output
}

/// Runs `binary` with `args` and `stdin`, and returns its stdout.
///
/// # Panics
/// When the binary cannot be run or does not exit with status 0.
pub fn run(binary: &str, args: &[&str], stdin: &[u8]) -> Vec<u8> {
    let output = output(binary, args, stdin);
    assert!(
        output.status.success(),
        "{binary} {args:?} failed ({}): {}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    output.stdout
}

/// Checks that `binary` with `args` and `--svg FILE`, FILE a file (the input, the folder
/// forgotten), exits with status 2 and one line saying what is wrong, before reading any input,
/// and leaves FILE as it was.
///
/// # Panics
/// When it does not.
pub fn refuses_a_file_for_the_folder(binary: &str, args: &[&str]) {
    let name = format!("svg-not-a-folder-{}-{}", std::process::id(), args.join("-"));
    let file = std::env::temp_dir().join(name);
    std::fs::write(&file, "kept\n").unwrap_or_else(|err| panic!("cannot write {}: {err}", file.display()));
    let path = file.to_str().expect("a UTF-8 path");
    // No input at all: the arguments alone are refused, before stdin is read.
    let output = output(binary, &[args, &["--svg", path]].concat(), b"");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{binary} {args:?} --svg FILE: {stderr}");
    assert!(output.stdout.is_empty());
    let first = stderr.lines().next().unwrap_or_default();
    let says = first.starts_with("error: ") && first.ends_with("is a file; `--svg` takes a folder");
    assert!(says && first.contains(path), "{binary} {args:?}: {stderr}");
    assert_eq!(std::fs::read_to_string(&file).expect("still there"), "kept\n");
    let _ = std::fs::remove_file(&file);
}

/// An empty folder `name` under `parent` (a test's scratch space), removed first if a former
/// run left it.
///
/// # Panics
/// When the folder cannot be made.
pub fn fresh_dir(parent: &str, name: &str) -> std::path::PathBuf {
    let dir = std::path::Path::new(parent).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap_or_else(|err| panic!("cannot make {}: {err}", dir.display()));
    dir
}

/// The names of the files in `dir`, sorted.
///
/// # Panics
/// When `dir` cannot be read.
pub fn file_names(dir: &std::path::Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap_or_else(|err| panic!("cannot read {}: {err}", dir.display()))
        .map(|entry| entry.expect("a folder entry").file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// Runs `binary` with `args` and `stdin` without pictures, then twice with `--svg DIR`: checks
/// that the pictures leave stdout as it is and that the second run writes the same files, byte
/// for byte. Returns stdout.
///
/// # Panics
/// When a run fails or a check does not hold.
pub fn run_with_pictures(binary: &str, args: &[&str], stdin: &[u8], dir: &std::path::Path) -> Vec<u8> {
    let plain = run(binary, args, stdin);
    let dir_arg = dir.to_str().expect("a UTF-8 path");
    let with_pictures = [args, &["--svg", dir_arg]].concat();
    assert_eq!(run(binary, &with_pictures, stdin), plain, "--svg leaves the answer as it is");
    let read_all = || {
        let names = file_names(dir);
        names
            .into_iter()
            .map(|name| (std::fs::read(dir.join(&name)).expect("just listed"), name))
            .collect::<Vec<_>>()
    };
    let first = read_all();
    run(binary, &with_pictures, stdin);
    assert!(first == read_all(), "the same input and options give the same pictures");
    plain
}

/// Runs `binary` with `args`, `--svg` into a fresh folder `name` under `parent`, and the input
/// `stdin`, and returns the picture `file` it wrote: for checking that a picture committed to a
/// README is the one the tool draws today.
///
/// # Panics
/// When the run fails or does not write `file`.
pub fn picture_of(
    binary: &str,
    args: &[&str],
    stdin: &[u8],
    (parent, name): (&str, &str),
    file: &str,
) -> String {
    let dir = fresh_dir(parent, name);
    run(binary, &[args, &["--svg", dir.to_str().expect("a UTF-8 path")]].concat(), stdin);
    std::fs::read_to_string(dir.join(file)).unwrap_or_else(|err| panic!("{file} was not written: {err}"))
}
