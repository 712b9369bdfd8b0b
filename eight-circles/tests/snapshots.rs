//! Snapshot tests of the `eight-circles` binary: one snapshot per file in `tests/cases/`.
//! Review changes with `cargo insta review`.

#[test]
fn cases() {
    insta::glob!("cases/*.in", |path| {
        insta::assert_snapshot!(common::cases::run(env!("CARGO_BIN_EXE_eight-circles"), path));
    });
}
