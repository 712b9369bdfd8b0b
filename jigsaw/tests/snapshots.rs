//! Snapshot tests of the `jigsaw` binary: one snapshot per file in `tests/cases/`.
//! Review changes with `cargo insta review`.

#[test]
fn cases() {
    insta::glob!("cases/*.in", |path| {
        insta::assert_snapshot!(common::cases::run(env!("CARGO_BIN_EXE_jigsaw"), path));
    });
}
