use super::*;

const SAMPLE: &str = include_str!("../../samples/sample.in");

#[test]
fn reads_the_sample() {
    let cases = cases(SAMPLE.as_bytes()).unwrap();
    assert_eq!(cases.len(), 2);
    assert_eq!(cases[0].board.row(2), &[4, 3, 2, 1]);
    assert_eq!(cases[0].queries[0], Query::new(1, 1, 3, 4));
    assert_eq!(cases[1].board.row(0), &[0, 1, 4, 3]);
    assert_eq!(cases[1].queries, [Query::new(1, 1, 2, 4), Query::new(1, 3, 2, 3)]);
}

#[test]
fn end_of_input_may_replace_the_terminator() {
    assert_eq!(cases(b"1 2\r\n7 0\r\n1\r\n1 1 1 2\r\n\r\n").unwrap().len(), 1);
    assert!(cases(b"").unwrap().is_empty());
    assert!(cases(b" \n 0 0 \n\n").unwrap().is_empty());
}

#[test]
fn line_breaks_carry_no_meaning() {
    let cases = cases(b"2 2 1\n2 3 4 2 1 1 2 2\t1 2 2 1 0 0").unwrap();
    assert_eq!(cases[0].board.cells(), &[1, 2, 3, 4]);
    assert_eq!(cases[0].queries.len(), 2);
}

#[test]
fn large_kinds_are_pieces() {
    let cases = cases(b"1 2 4294967295 4294967295 1 1 1 1 2 0 0").unwrap();
    assert_eq!(cases[0].board.cells(), &[u32::MAX, u32::MAX]);
}

#[test]
fn bad_input_is_located() {
    let kind = "a piece kind (0 for an empty cell, at most 4294967295)";
    for (src, span, message) in [
        ("x", 0..1, "expected a row count from 1 to 8000 (or `0 0` to end the input), found `x`".to_owned()),
        (
            "8001 1",
            0..4,
            "expected a row count from 1 to 8000 (or `0 0` to end the input), found `8001`".to_owned(),
        ),
        ("0 3", 2..3, "expected `0` after `0` (the input ends with `0 0`), found `3`".to_owned()),
        ("2 0", 2..3, "expected a column count from 1 to 8000, found `0`".to_owned()),
        (
            "4000 4001",
            5..9,
            "expected a column count from 1 to 4000 (a board holds at most 16000000 cells), found `4001`"
                .to_owned(),
        ),
        ("1 2\n3 -1", 6..8, format!("expected {kind} at row 1, column 2, found `-1`")),
        ("1 2\n3 4294967296", 6..16, format!("expected {kind} at row 1, column 2, found `4294967296`")),
        ("2 2\n1 2\n3", 9..9, format!("expected {kind} at row 2, column 2, found end of input")),
        ("1 1\n1\n1000001", 6..13, "expected a query count from 0 to 1000000, found `1000001`".to_owned()),
        (
            "1 2\n1 1\n1\n1 1 1 3",
            16..17,
            "expected the column of the second cell of query 1, from 1 to 2, found `3`".to_owned(),
        ),
        (
            "1 2\n1 1\n1\n0 1 1 2",
            10..11,
            "expected the row of the first cell of query 1, from 1 to 1, found `0`".to_owned(),
        ),
        (
            "1 1\n1\n0\n0 0 junk",
            12..16,
            "expected nothing after the terminating `0 0`, found `junk`".to_owned(),
        ),
        ("1 1\n1\n0\n0 0 0 0", 12..13, "expected nothing after the terminating `0 0`, found `0`".to_owned()),
        (
            "1 1\n1\n0\n0",
            9..9,
            "expected `0` after `0` (the input ends with `0 0`), found end of input".to_owned(),
        ),
        ("1 1\n7x\n", 4..6, format!("expected {kind} at row 1, column 1, found `7x`")),
    ] {
        let err = cases(src.as_bytes()).unwrap_err();
        assert_eq!((err.span, err.message), (span, message), "{src:?}");
    }
}

#[test]
fn the_row_limit_follows_the_cell_limit() {
    let err = cases(b"1 8001").unwrap_err();
    assert_eq!(err.message, "expected a column count from 1 to 8000, found `8001`");
    // 2000 × 8000 is exactly the cell limit: the header is accepted, the board is short.
    let err = cases(b"2000 8000 1").unwrap_err();
    assert!(err.message.ends_with("at row 1, column 2, found end of input"), "{}", err.message);
}

#[test]
fn junk_in_a_block_of_spaces_and_digits_is_refused_where_it_stands() {
    // Long enough for the 64-byte fast path; `x` is no whitespace and splits no token.
    let src = b"1 1 x0000 000000000 000000000 00 00  000 000 0000 000 000 00 000000    ";
    let error = cases(src).expect_err("x0000 is no kind");
    assert_eq!(error.span, 4..9, "{error:?}");
}

#[test]
fn rows_and_queries_are_line_records() {
    let lines_of = |src: &[u8]| {
        let mut lines = LineRecords::default();
        let read = cases_checking_lines(src, SideLimit::FORMAT, &mut lines).map(|cases| cases.len());
        (read, lines)
    };
    let (read, lines) = lines_of(SAMPLE.as_bytes());
    assert!(read.is_ok() && lines.are_aligned(), "{read:?} {:?}", lines.warning());
    // A row of three where the board has four columns takes the next row's first kind.
    let (read, lines) = lines_of(b"2 4\n1 2 3\n4 5 6 7 8\n1\n1 1 1 2\n0 0\n");
    assert_eq!(read, Ok(1), "read as the judge reads it");
    let warning = lines.warning().expect("row 1 is short");
    assert_eq!(warning.span, 9..9);
    assert!(warning.message.starts_with("this line ends inside row 1 of case 1, "), "{}", warning.message);
    // Long enough rows for the 64-byte blocks, one of them with a kind too many.
    let row = "1 ".repeat(40);
    let src = format!("3 40\n{row}\n{row}1\n{row}\n0\n0 0\n");
    let (read, lines) = lines_of(src.as_bytes());
    assert!(read.is_err(), "the kind too many shifts the board into the query count");
    let warning = lines.warning().expect("row 2 holds a kind too many");
    assert!(warning.message.starts_with("more on this line after row 2 of case 1, "), "{}", warning.message);
    // Two queries on one line.
    let (_, lines) = lines_of(b"1 2\n5 5\n2\n1 1 1 2 1 2 1 1\n");
    assert!(lines.warning().expect("query 1 shares its line").message.contains("query 1 of case 1"));
}

#[test]
fn nothing_is_read_after_an_error() {
    let mut reader = Reader::new(b"1 1 1 0 1 x 1 1 1 0");
    assert!(reader.next().unwrap().is_ok());
    assert!(reader.next().unwrap().is_err());
    assert!(reader.next().is_none());
}
