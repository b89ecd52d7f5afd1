//! Hints for a command name that is not one: the name another protocol uses for it
//! (`genmove`), the same name in other case or with `-` for `_` (`PLAY`, `list-commands`),
//! or the nearest names by a weighted edit distance, as git suggests a command (its
//! `help.c`: a swap of two neighbouring letters is free, an insertion costs 1, a
//! substitution 2, a deletion 3, and names at distance 7 or more are not suggested).
//! As in git, a name that starts with the typed word (of 3 characters or more) is at
//! distance 0: `show` suggests the `show_` commands. hnefi's names are few and short, so a
//! name further than the typed word's length in characters is not suggested: `foo` is not
//! a typo of `stop`.

/// Names at this weighted distance or more are not suggested (git's `SIMILARITY_FLOOR`).
const FLOOR: usize = 7;
/// Names longer than this are not compared (a line may hold 64 KiB of one word).
const LONGEST: usize = 64;

/// The hint for the unknown command `name` among the command `names`, whose `foreign`
/// names map another protocol's names to them: `hnefi calls it NAME`, `did you mean
/// NAME?`, or none.
pub(crate) fn hint<'n>(
    names: impl Iterator<Item = &'n str> + Clone,
    foreign: &[(&str, &str)],
    name: &str,
) -> Option<String> {
    if let Some((_, own)) = foreign.iter().find(|(other, _)| *other == name) {
        return Some(format!("hnefi calls it {own}"));
    }
    let folded = name.to_ascii_lowercase().replace('-', "_");
    if let Some((_, own)) = foreign.iter().find(|(other, _)| *other == folded) {
        return Some(format!("hnefi calls it {own}"));
    }
    if let Some(own) = names.clone().find(|n| *n == folded) {
        return Some(format!("did you mean {own}?"));
    }
    if folded.len() > LONGEST {
        return None;
    }
    let scored: Vec<(usize, &str)> = names
        .map(|n| {
            let prefix = folded.chars().count() >= 3 && n.starts_with(&folded);
            let d = if prefix { 0 } else { distance(&folded, n) };
            (d, n)
        })
        .collect();
    let best = scored.iter().map(|(d, _)| *d).min()?;
    if best >= FLOOR || best > folded.chars().count() {
        return None;
    }
    let names: Vec<&str> = scored
        .iter()
        .filter(|(d, _)| *d == best)
        .map(|(_, n)| *n)
        .collect();
    Some(format!("did you mean {}?", names.join(" or ")))
}

/// git's weighted Damerau-Levenshtein distance from `typed` to `name` (swap 0,
/// substitution 2, insertion 1, deletion 3).
fn distance(typed: &str, name: &str) -> usize {
    const SWAP: usize = 0;
    const SUBSTITUTION: usize = 2;
    const INSERTION: usize = 1;
    const DELETION: usize = 3;
    let a: Vec<char> = typed.chars().collect();
    let b: Vec<char> = name.chars().collect();
    // Three rows of the table: two rows back (for swaps), the last and the current.
    let mut row0 = vec![0usize; b.len() + 1];
    let mut row1: Vec<usize> = (0..=b.len()).map(|j| j * INSERTION).collect();
    let mut row2 = vec![0usize; b.len() + 1];
    for i in 0..a.len() {
        if let Some(first) = row2.first_mut() {
            *first = (i + 1) * DELETION;
        }
        for j in 0..b.len() {
            let (ai, bj) = (a.get(i), b.get(j));
            let diag = row1.get(j).copied().unwrap_or(usize::MAX / 2);
            let mut best = diag + if ai == bj { 0 } else { SUBSTITUTION };
            if i > 0 && j > 0 && a.get(i - 1) == bj && ai == b.get(j - 1) {
                let before = row0.get(j - 1).copied().unwrap_or(usize::MAX / 2);
                best = best.min(before + SWAP);
            }
            let left = row2.get(j).copied().unwrap_or(usize::MAX / 2);
            best = best.min(left + INSERTION);
            let up = row1.get(j + 1).copied().unwrap_or(usize::MAX / 2);
            best = best.min(up + DELETION);
            if let Some(cell) = row2.get_mut(j + 1) {
                *cell = best;
            }
        }
        std::mem::swap(&mut row0, &mut row1);
        std::mem::swap(&mut row1, &mut row2);
    }
    row1.get(b.len()).copied().unwrap_or(usize::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::commands::{COMMANDS, FOREIGN_NAMES};

    fn h(name: &str) -> Option<String> {
        hint(COMMANDS.iter().map(|c| c.name), FOREIGN_NAMES, name)
    }

    #[test]
    fn distances() {
        assert_eq!(distance("play", "play"), 0);
        assert_eq!(distance("plya", "play"), 0);
        assert_eq!(distance("pla", "play"), 1);
        assert_eq!(distance("plays", "play"), 3);
        assert_eq!(distance("plby", "play"), 2);
        assert_eq!(distance("", "play"), 4);
    }

    #[test]
    fn hints() {
        assert_eq!(h("Play").as_deref(), Some("did you mean play?"));
        assert_eq!(
            h("list-commands").as_deref(),
            Some("did you mean list_commands?")
        );
        assert_eq!(
            h("GENMOVE").as_deref(),
            Some("hnefi calls it generate_move")
        );
        assert_eq!(h("show_bord").as_deref(), Some("did you mean show_board?"));
        assert_eq!(h("quiet").as_deref(), Some("did you mean quit?"));
        assert_eq!(h(&"x".repeat(100_000)), None);
        assert_eq!(h("zzzzzzzz"), None);
        assert_eq!(h("foo"), None);
        assert_eq!(
            h("show").as_deref(),
            Some("did you mean show_board or show_moves or show_position?")
        );
    }
}

#[cfg(test)]
mod examples {
    //! The examples of this file's documentation, as unit tests: the items they show are
    //! the crate's own, which a doctest (another crate) cannot reach.

    #[test]
    fn suggest() -> Result<(), Box<dyn std::error::Error>> {
        use crate::protocol::commands::{COMMANDS, FOREIGN_NAMES};
        use crate::protocol::suggest::hint;
        let names = || COMMANDS.iter().map(|c| c.name);
        assert_eq!(
            hint(names(), FOREIGN_NAMES, "PLAY").as_deref(),
            Some("did you mean play?")
        );
        assert_eq!(
            hint(names(), FOREIGN_NAMES, "plya").as_deref(),
            Some("did you mean play?")
        );
        assert_eq!(
            hint(names(), FOREIGN_NAMES, "genmove").as_deref(),
            Some("hnefi calls it generate_move")
        );
        assert_eq!(hint(names(), FOREIGN_NAMES, "xyzzy"), None);
        Ok(())
    }
}
