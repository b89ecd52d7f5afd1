//! `show_board` in colour for a person at a terminal: the game's diagram
//! ([`AnyGame::diagram`], which stays the one owner of the layout) with ANSI styles added
//! (`anstyle`, the styles clap already prints its help with): attackers red, defenders
//! blue, the king yellow, all bold; the squares the game's rules restrict (its corners and
//! throne) and the labels dim. Without the escape codes the text is the plain diagram,
//! character for character.
//!
//! hnefi draws in colour when its stdout is a terminal and `NO_COLOR` is unset or empty
//! (<https://no-color.org>); a pipe, a controller's, gets the plain text as always.

use std::io::IsTerminal;

use anstyle::{AnsiColor, Style};

use crate::core::any_game::AnyGame;
use crate::core::any_square::AnySquare;

const ATTACKER: Style = Style::new()
    .bold()
    .fg_color(Some(anstyle::Color::Ansi(AnsiColor::Red)));
const DEFENDER: Style = Style::new()
    .bold()
    .fg_color(Some(anstyle::Color::Ansi(AnsiColor::Blue)));
const KING: Style = Style::new()
    .bold()
    .fg_color(Some(anstyle::Color::Ansi(AnsiColor::Yellow)));
const RESTRICTED: Style = Style::new().fg_color(Some(anstyle::Color::Ansi(AnsiColor::Yellow)));
const LABEL: Style = Style::new().dimmed();

/// Whether `show_board` should draw in colour: stdout is a terminal and `NO_COLOR` is
/// unset or empty.
pub fn wanted() -> bool {
    std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
}

/// The diagram of `game` in colour.
pub(crate) fn diagram(game: &AnyGame) -> String {
    let plain = game.diagram();
    let files = game.size().files();
    let restricted = restricted(game);
    let mut out = String::with_capacity(plain.len() * 4);
    for (i, line) in plain.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        // A rank's line: its number, two spaces, one cell a square separated by spaces.
        let rank = usize::from(files)
            .checked_sub(i + 1)
            .and_then(|r| u8::try_from(r).ok());
        match (rank, line.split_once("  ")) {
            (Some(rank), Some((label, cells))) => {
                out.push_str(&paint(LABEL, label));
                out.push_str("  ");
                for (j, cell) in cells.split(' ').enumerate() {
                    if j > 0 {
                        out.push(' ');
                    }
                    let on_restricted =
                        u8::try_from(j).is_ok_and(|file| restricted.contains(&(file, rank)));
                    out.push_str(&match cell {
                        "X" => paint(ATTACKER, cell),
                        "O" => paint(DEFENDER, cell),
                        "K" => paint(KING, cell),
                        _ if on_restricted => paint(RESTRICTED, cell),
                        _ => cell.to_string(),
                    });
                }
            }
            _ => out.push_str(&paint(LABEL, line)),
        }
    }
    out
}

/// The file and rank of each square the game's rules restrict.
fn restricted(game: &AnyGame) -> Vec<(u8, u8)> {
    crate::with_size!(game.size(), G => game
        .rules()
        .restricted::<G>()
        .into_iter()
        .map(AnySquare::from)
        .map(|sq| (sq.file(), sq.rank()))
        .collect())
}

/// `text` in `style`, the style reset after it.
fn paint(style: Style, text: &str) -> String {
    format!("{style}{text}{style:#}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::corners::Corners;
    use crate::core::geometry::BoardSize;
    use crate::core::preset::RulePreset;
    use crate::core::role::Role;
    use crate::core::rules::RuleSet;

    /// The text without its escape sequences (ESC `[` ... `m`).
    fn strip(text: &str) -> String {
        let mut out = String::new();
        let mut chars = text.chars();
        while let Some(c) = chars.next() {
            if c == '\u{1b}' {
                for d in chars.by_ref() {
                    if d == 'm' {
                        break;
                    }
                }
            } else {
                out.push(c);
            }
        }
        out
    }

    #[test]
    fn the_colours_are_added_to_the_plain_diagram_only() {
        for (preset, size) in [
            (RulePreset::Copenhagen, BoardSize::S11),
            (RulePreset::Copenhagen, BoardSize::S7),
            (RulePreset::Tablut, BoardSize::S15),
        ] {
            let variant = preset.variant(size).unwrap();
            let game = AnyGame::start(&variant, Role::Attacker, variant.rules()).unwrap();
            let coloured = diagram(&game);
            assert_ne!(coloured, game.diagram());
            assert_eq!(strip(&coloured), game.diagram());
            assert!(coloured.contains(&paint(KING, "K")));
        }
        // A game without corners or throne has no restricted square to shade.
        let rules = RuleSet {
            corners: Corners::Off,
            throne: false,
            ..RuleSet::default()
        };
        let variant = RulePreset::Copenhagen.variant(BoardSize::S11).unwrap();
        let game = AnyGame::start(&variant, Role::Attacker, rules).unwrap();
        assert!(!diagram(&game).contains(&paint(RESTRICTED, ".")));
    }
}
