//! Every example the READMEs and the `--help` texts print for the `eight-circles` binary runs as
//! printed, and prints what they show.

#[test]
fn documented_examples_run_as_printed() {
    common::examples::check(env!("CARGO_BIN_EXE_eight-circles"), env!("CARGO_MANIFEST_DIR"));
}
