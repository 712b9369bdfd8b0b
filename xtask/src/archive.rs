//! The release's `.tar.gz`, made the same from the same files on any machine.

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::Result;

/// Writes `folder` as a `.tar.gz` of one directory `name` holding the folder's files and
/// subfolders, in a form that depends only on their paths, contents and whether they are
/// executable: entries sorted by path (a folder just before its contents), every time stamp
/// `mtime`, owner root (uid and gid 0), modes 0755 for folders and executables and 0644
/// otherwise, and a gzip header with neither a time nor a file name.
pub fn write(out: impl Write, name: &str, folder: &Path, mtime: u64) -> Result<()> {
    let header = |kind: tar::EntryType, size: u64, mode: u32| -> Result<tar::Header> {
        let mut header = tar::Header::new_ustar();
        header.set_entry_type(kind);
        header.set_size(size);
        header.set_mode(mode);
        header.set_mtime(mtime);
        header.set_uid(0);
        header.set_gid(0);
        header.set_username("root")?;
        header.set_groupname("root")?;
        Ok(header)
    };
    let gzip = flate2::GzBuilder::new().mtime(0).operating_system(255);
    let mut tar = tar::Builder::new(gzip.write(out, flate2::Compression::best()));
    tar.append_data(&mut header(tar::EntryType::Directory, 0, 0o755)?, format!("{name}/"), std::io::empty())?;
    for (relative, path) in entries(folder)? {
        let metadata = std::fs::metadata(&path)?;
        if metadata.is_dir() {
            let mut header = header(tar::EntryType::Directory, 0, 0o755)?;
            tar.append_data(&mut header, format!("{name}/{relative}/"), std::io::empty())?;
        } else if metadata.is_file() {
            let mode = if is_executable(&metadata) { 0o755 } else { 0o644 };
            let mut header = header(tar::EntryType::Regular, metadata.len(), mode)?;
            tar.append_data(&mut header, format!("{name}/{relative}"), std::fs::File::open(&path)?)?;
        } else {
            return Err(format!("{} is neither a file nor a folder", path.display()).into());
        }
    }
    tar.into_inner()?.finish()?.flush()?;
    Ok(())
}

/// Every file and folder under `folder`, each as its path relative to `folder` with `/` between
/// the names, and its path; sorted by the relative path, which puts a folder before its contents.
fn entries(folder: &Path) -> Result<Vec<(String, PathBuf)>> {
    let mut found = Vec::new();
    let mut pending = vec![(String::new(), folder.to_path_buf())];
    while let Some((prefix, dir)) = pending.pop() {
        for entry in std::fs::read_dir(&dir)? {
            let entry = entry?;
            let name =
                entry.file_name().into_string().map_err(|name| format!("{} is not UTF-8", name.display()))?;
            let relative = if prefix.is_empty() { name } else { format!("{prefix}/{name}") };
            if entry.file_type()?.is_dir() {
                pending.push((relative.clone(), entry.path()));
            }
            found.push((relative, entry.path()));
        }
    }
    found.sort();
    Ok(found)
}

#[cfg(unix)]
fn is_executable(metadata: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::PermissionsExt;
    metadata.permissions().mode() & 0o111 != 0
}

#[cfg(not(unix))]
fn is_executable(_: &std::fs::Metadata) -> bool {
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fresh empty folder under the system's temporary folder.
    fn scratch(label: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("xtask-test-{}-{label}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    /// Writes `files` into `dir` in the given order, each with the given executable bit, making
    /// the folders their paths name.
    fn fill(dir: &Path, files: &[(&str, &[u8], bool)]) {
        for &(name, bytes, executable) in files {
            let path = dir.join(name);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, bytes).unwrap();
            #[cfg(unix)]
            {
                use std::os::unix::fs::PermissionsExt;
                let mode = if executable { 0o700 } else { 0o600 };
                std::fs::set_permissions(&path, std::fs::Permissions::from_mode(mode)).unwrap();
            }
        }
    }

    fn archive(dir: &Path, mtime: u64) -> Vec<u8> {
        let mut bytes = Vec::new();
        write(&mut bytes, "pkg", dir, mtime).unwrap();
        bytes
    }

    #[test]
    fn archives_depend_only_on_paths_contents_and_the_given_time() {
        let files: [(&str, &[u8], bool); 5] = [
            ("bin/tool", b"\x7fELF binary", true),
            ("README.md", b"# read me\n", false),
            ("tool/samples/b.in", b"2\n", false),
            ("LICENSE", b"text", false),
            ("tool/samples/a.in", b"1\n", false),
        ];
        let first = scratch("first");
        fill(&first, &files);
        // Other creation order, other file times and permission bits beyond executable or not.
        let second = scratch("second");
        std::thread::sleep(std::time::Duration::from_millis(1100));
        let mut reversed = files;
        reversed.reverse();
        fill(&second, &reversed);

        let archived = archive(&first, 1_700_000_000);
        assert_eq!(archived, archive(&second, 1_700_000_000));
        assert_ne!(archived, archive(&first, 1_700_000_001), "the time given is the time stamped");
        // The gzip header: no time (bytes 4..8), no file name (flag byte 3), OS unknown (byte 9).
        assert_eq!((archived[3], &archived[4..8], archived[9]), (0, &[0u8; 4][..], 255));

        let mut entries = Vec::new();
        let mut reader = tar::Archive::new(flate2::read::GzDecoder::new(archived.as_slice()));
        for entry in reader.entries().unwrap() {
            let entry = entry.unwrap();
            let header = entry.header();
            entries.push((
                entry.path().unwrap().display().to_string(),
                header.mode().unwrap(),
                header.mtime().unwrap(),
                (header.uid().unwrap(), header.gid().unwrap()),
                header.username().unwrap().map(str::to_owned),
            ));
        }
        let entry =
            |path: &str, mode| (path.to_owned(), mode, 1_700_000_000, (0, 0), Some("root".to_owned()));
        assert_eq!(
            entries,
            [
                entry("pkg/", 0o755),
                entry("pkg/LICENSE", 0o644),
                entry("pkg/README.md", 0o644),
                entry("pkg/bin/", 0o755),
                entry("pkg/bin/tool", 0o755),
                entry("pkg/tool/", 0o755),
                entry("pkg/tool/samples/", 0o755),
                entry("pkg/tool/samples/a.in", 0o644),
                entry("pkg/tool/samples/b.in", 0o644),
            ]
        );
        let _ = std::fs::remove_dir_all(first);
        let _ = std::fs::remove_dir_all(second);
    }
}
