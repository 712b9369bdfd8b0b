//! The hash both searches use: splitmix64's finaliser ([`mix`]), and its fold over the words of a
//! key ([`fingerprint`]).

/// splitmix64's finaliser: equal inputs give equal outputs, close ones look unrelated (the
/// seeds of both searches' rounds, the hash of a key without gravity, the Zobrist words with
/// gravity).
pub(super) fn mix(value: u64) -> u64 {
    let mut value = value.wrapping_add(0x9E37_79B9_7F4A_7C15);
    value = (value ^ (value >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    value = (value ^ (value >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    value ^ (value >> 31)
}

/// The hash of a key: [`mix`] folded over its words (every bit of every word reaches every bit
/// of the hash).
pub(super) fn fingerprint(key: &[u64]) -> u64 {
    key.iter().fold(0, |hash, &word| mix(hash ^ word))
}
