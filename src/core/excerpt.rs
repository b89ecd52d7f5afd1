//! The excerpt of outside text that a message quotes: at most [`EXCERPT_CHARS`]
//! characters, marked `...` where it was cut, so that a message stays one short line
//! whatever it was sent, and every message cuts the same way.

/// How many characters of outside text a message quotes.
pub(crate) const EXCERPT_CHARS: usize = 40;

/// `s` as a message quotes it.
pub(crate) fn excerpt(s: &str) -> String {
    let mut chars = s.chars();
    let mut out: String = chars.by_ref().take(EXCERPT_CHARS).collect();
    if chars.next().is_some() {
        out.push_str("...");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_text_is_cut_and_marked() {
        assert_eq!(excerpt("h1-h3"), "h1-h3");
        let long = "é".repeat(EXCERPT_CHARS + 1);
        let cut = excerpt(&long);
        assert_eq!(cut.chars().count(), EXCERPT_CHARS + 3);
        assert!(cut.ends_with("..."));
        assert_eq!(
            excerpt(&"x".repeat(EXCERPT_CHARS)),
            "x".repeat(EXCERPT_CHARS)
        );
    }
}
