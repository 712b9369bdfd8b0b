//! The name meant by a misspelt one: "did you mean `install`?" for `instal`.

/// The candidate nearest to `typed` by edit distance, when it is near enough to be a slip of
/// the keyboard: at most two edits, and fewer than the typed name's length (so `x` suggests
/// nothing). Ties go to the first candidate.
pub fn closest<'a>(typed: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let most = 2.min(typed.chars().count().saturating_sub(1));
    candidates
        .into_iter()
        .map(|candidate| (edit_distance(typed, candidate), candidate))
        .filter(|&(distance, _)| distance <= most)
        .min_by_key(|&(distance, _)| distance)
        .map(|(_, candidate)| candidate)
}

/// The fewest insertions, deletions, substitutions and swaps of two neighbouring characters that
/// turn `a` into `b` (the optimal string alignment distance): a swap is one slip, not two.
fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    // rows[i][j]: the distance between the first i characters of a and the first j of b.
    let mut rows = vec![vec![0; b.len() + 1]; a.len() + 1];
    for (i, row) in rows.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in rows[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let substitution = rows[i - 1][j - 1] + usize::from(a[i - 1] != b[j - 1]);
            let mut best = substitution.min(rows[i - 1][j] + 1).min(rows[i][j - 1] + 1);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(rows[i - 2][j - 2] + 1);
            }
            rows[i][j] = best;
        }
    }
    rows[a.len()][b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edits_are_counted_one_slip_each() {
        assert_eq!(edit_distance("install", "install"), 0);
        assert_eq!(edit_distance("instal", "install"), 1);
        assert_eq!(edit_distance("isntall", "install"), 1);
        assert_eq!(edit_distance("chekc", "check"), 1);
        assert_eq!(edit_distance("", "demo"), 4);
        assert_eq!(edit_distance("bench", "check"), 4);
    }

    #[test]
    fn only_a_near_name_is_suggested() {
        let tasks = ["check", "test-all", "demo", "install", "release", "bench"];
        assert_eq!(closest("instal", tasks), Some("install"));
        assert_eq!(closest("relase", tasks), Some("release"));
        assert_eq!(closest("tests-all", tasks), Some("test-all"));
        assert_eq!(closest("d", tasks), None);
        assert_eq!(closest("build", tasks), None);
    }
}
