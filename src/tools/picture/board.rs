//! A position drawn as SVG ([`Scene`] to a document of the `svg` crate): the board's
//! squares with the restricted ones shaded and the forts in another shade, file letters and rank numbers, the last move's
//! squares highlighted with an arrow from one to the other, a cross on each square whose
//! soldier it captured, and the pieces: attackers dark, defenders light, the king gold with
//! a cross.
//!
//! Every piece is a `<g class="piece attacker|defender|king" data-square="d3">`, the last
//! move's marks have the class `last-move`, each capture's `captured`: a program reading
//! the picture (its tests) finds them by class.

use svg::Document;
use svg::node::element::{Circle, Group, Line, Polygon, Rectangle, Text, Title};

use crate::core::any_square::AnySquare;
use crate::core::board::Piece;

use super::scene::Scene;

/// A square's side, in the picture's units (pixels at its natural size).
const SQUARE: f64 = 40.0;
/// The room left of the board (rank numbers) and below it (file letters).
const LABELS: f64 = 26.0;
/// The room above the board and right of it.
const PAD: f64 = 8.0;

const BACKGROUND: &str = "#ffffff";
const SQUARE_FILL: &str = "#ead7b0";
const RESTRICTED_FILL: &str = "#b88c55";
const FORT_FILL: &str = "#a9b7a0";
const GRID: &str = "#7a5a32";
const HIGHLIGHT: &str = "#f4d35e";
const ARROW: &str = "#2f6db5";
const CAPTURED: &str = "#c0392b";
const DARK: &str = "#262626";
const LIGHT: &str = "#f7f7f2";
const KING: &str = "#e0b23a";
const LABEL_INK: &str = "#444444";

/// The picture of `scene`, its `<title>` `title`.
pub(crate) fn draw(scene: &Scene, title: &str) -> Document {
    let n = f64::from(scene.files);
    let width = LABELS + n * SQUARE + PAD;
    let height = PAD + n * SQUARE + LABELS;
    let at = Place { files: scene.files };
    let mut doc = Document::new()
        .set("width", width)
        .set("height", height)
        .set("viewBox", (0, 0, width, height))
        .add(Title::new(title))
        .add(
            Rectangle::new()
                .set("width", width)
                .set("height", height)
                .set("fill", BACKGROUND),
        );
    doc = doc.add(squares(scene, &at));
    if let Some(mv) = scene.last_move {
        doc = doc.add(last_move(mv.from, mv.to, &at));
    }
    for &sq in &scene.captured {
        doc = doc.add(captured(sq, &at));
    }
    for &(sq, piece) in &scene.pieces {
        doc = doc.add(piece_at(sq, piece, &at));
    }
    doc.add(labels(scene.files, &at))
}

/// Where the squares of a board of `files` files are drawn.
struct Place {
    files: u8,
}

impl Place {
    /// The top left corner of the square of 0-based `file` and `rank` (rank 1 at the
    /// bottom).
    fn corner(&self, file: u8, rank: u8) -> (f64, f64) {
        let rows_above = f64::from(self.files) - 1.0 - f64::from(rank);
        (LABELS + f64::from(file) * SQUARE, PAD + rows_above * SQUARE)
    }

    /// The centre of `sq`.
    fn centre(&self, sq: AnySquare) -> (f64, f64) {
        let (x, y) = self.corner(sq.file(), sq.rank());
        (x + SQUARE / 2.0, y + SQUARE / 2.0)
    }

    /// A square-sized rectangle on the square of `file` and `rank`.
    fn square(&self, file: u8, rank: u8) -> Rectangle {
        let (x, y) = self.corner(file, rank);
        Rectangle::new()
            .set("x", x)
            .set("y", y)
            .set("width", SQUARE)
            .set("height", SQUARE)
    }
}

/// Every square of the board, the restricted ones and the forts shaded (each with its
/// class and `data-square`).
fn squares(scene: &Scene, at: &Place) -> Group {
    let mut group = Group::new()
        .set("class", "squares")
        .set("stroke", GRID)
        .set("stroke-width", 1);
    for rank in 0..scene.files {
        for file in 0..scene.files {
            let here = |sq: &&AnySquare| (sq.file(), sq.rank()) == (file, rank);
            let special = match (
                scene.restricted.iter().find(here),
                scene.forts.iter().find(here),
            ) {
                (Some(sq), _) => Some((sq, RESTRICTED_FILL, "restricted")),
                (None, Some(sq)) => Some((sq, FORT_FILL, "fort")),
                (None, None) => None,
            };
            let rect = at.square(file, rank);
            group = group.add(match special {
                Some((sq, fill, class)) => rect
                    .set("fill", fill)
                    .set("class", class)
                    .set("data-square", sq.to_string()),
                None => rect.set("fill", SQUARE_FILL),
            });
        }
    }
    group
}

/// The last move: both squares highlighted, an arrow from the first to the second that
/// stops at the edge of the piece that moved.
fn last_move(from: AnySquare, to: AnySquare, at: &Place) -> Group {
    let (x0, y0) = at.centre(from);
    let (x1, y1) = at.centre(to);
    let (dx, dy) = (x1 - x0, y1 - y0);
    let length = dx.hypot(dy).max(1.0);
    let (ux, uy) = (dx / length, dy / length);
    // The tip stops short of the piece on the square moved to, the head behind it.
    let tip = (x1 - ux * SQUARE * 0.42, y1 - uy * SQUARE * 0.42);
    let head = SQUARE * 0.3;
    let base = (tip.0 - ux * head, tip.1 - uy * head);
    let half = SQUARE * 0.16;
    let wings = [
        (base.0 - uy * half, base.1 + ux * half),
        (base.0 + uy * half, base.1 - ux * half),
    ];
    let points = format!(
        "{},{} {},{} {},{}",
        tip.0, tip.1, wings[0].0, wings[0].1, wings[1].0, wings[1].1
    );
    Group::new()
        .set("class", "last-move")
        .set("data-move", format!("{from}-{to}"))
        .add(highlight(from, at))
        .add(highlight(to, at))
        .add(
            Line::new()
                .set("x1", x0)
                .set("y1", y0)
                .set("x2", base.0)
                .set("y2", base.1)
                .set("stroke", ARROW)
                .set("stroke-width", 4)
                .set("stroke-linecap", "round"),
        )
        .add(Polygon::new().set("points", points).set("fill", ARROW))
}

/// One of the last move's squares, highlighted.
fn highlight(sq: AnySquare, at: &Place) -> Rectangle {
    at.square(sq.file(), sq.rank())
        .set("fill", HIGHLIGHT)
        .set("fill-opacity", 0.75)
}

/// A cross on the square of a captured soldier.
fn captured(sq: AnySquare, at: &Place) -> Group {
    let (x, y) = at.centre(sq);
    let r = SQUARE * 0.28;
    let stroke = |line: Line| {
        line.set("stroke", CAPTURED)
            .set("stroke-width", 4)
            .set("stroke-linecap", "round")
    };
    Group::new()
        .set("class", "captured")
        .set("data-square", sq.to_string())
        .add(stroke(
            Line::new()
                .set("x1", x - r)
                .set("y1", y - r)
                .set("x2", x + r)
                .set("y2", y + r),
        ))
        .add(stroke(
            Line::new()
                .set("x1", x - r)
                .set("y1", y + r)
                .set("x2", x + r)
                .set("y2", y - r),
        ))
}

/// One piece: a disc, the king's with a cross.
fn piece_at(sq: AnySquare, piece: Piece, at: &Place) -> Group {
    let (x, y) = at.centre(sq);
    let (kind, fill) = match piece {
        Piece::Attacker => ("attacker", DARK),
        Piece::Defender => ("defender", LIGHT),
        Piece::King => ("king", KING),
    };
    let r = SQUARE * 0.38;
    let mut group = Group::new()
        .set("class", format!("piece {kind}"))
        .set("data-square", sq.to_string())
        .add(
            Circle::new()
                .set("cx", x)
                .set("cy", y)
                .set("r", r)
                .set("fill", fill)
                .set("stroke", DARK)
                .set("stroke-width", 2),
        );
    if piece == Piece::King {
        let arm = r * 0.55;
        for (dx, dy) in [(arm, 0.0), (0.0, arm)] {
            group = group.add(
                Line::new()
                    .set("x1", x - dx)
                    .set("y1", y - dy)
                    .set("x2", x + dx)
                    .set("y2", y + dy)
                    .set("stroke", DARK)
                    .set("stroke-width", 3)
                    .set("stroke-linecap", "round"),
            );
        }
    }
    group
}

/// The file letters below the board and the rank numbers left of it.
fn labels(files: u8, at: &Place) -> Group {
    let mut group = Group::new()
        .set("class", "labels")
        .set("font-family", "sans-serif")
        .set("font-size", 14)
        .set("fill", LABEL_INK);
    let bottom = PAD + f64::from(files) * SQUARE;
    for i in 0..files {
        let (x, y) = at.corner(i, i);
        let (x, y) = (x + SQUARE / 2.0, y + SQUARE / 2.0);
        group = group
            .add(
                Text::new(crate::core::square::file_letter(i).to_string())
                    .set("x", x)
                    .set("y", bottom + 18.0)
                    .set("text-anchor", "middle"),
            )
            .add(
                Text::new((u32::from(i) + 1).to_string())
                    .set("x", LABELS - 6.0)
                    .set("y", y + 5.0)
                    .set("text-anchor", "end"),
            );
    }
    group
}

#[cfg(test)]
mod examples {
    //! The examples of this file's documentation, as unit tests: the items they show are
    //! the crate's own, which a doctest (another crate) cannot reach.

    #[test]
    fn draw() {
        use crate::core::game::Game;
        use crate::core::rules::RuleSet;
        use crate::tools::picture::{board, scene::Scene};
        let text =
            board::draw(&Scene::of_game(&Game::new(RuleSet::default())), "start").to_string();
        assert!(text.starts_with("<svg") && text.contains("class=\"piece king\""));
    }
}
