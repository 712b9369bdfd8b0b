//! Counts in messages, with the noun in the right number: "1 move", "2 moves", "0 moves".

use std::fmt::Display;

/// `count` followed by `noun` (given in the singular, made plural with an `s`), in the plural
/// unless `count` is one.
pub fn counted(count: impl Display, noun: &str) -> String {
    let count = count.to_string();
    let plural = if count == "1" { "" } else { "s" };
    format!("{count} {noun}{plural}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_is_singular_and_every_other_count_plural() {
        assert_eq!(counted(1_u8, "move"), "1 move");
        assert_eq!(counted(0_usize, "move"), "0 moves");
        assert_eq!(counted(2_u64, "kind"), "2 kinds");
        assert_eq!(counted(11_u32, "circle"), "11 circles");
    }
}
