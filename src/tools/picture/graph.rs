//! The evaluation graph of an annotated game, as SVG drawn by `plotters`: each side's win
//! chance by ply, from the annotation's `wdl` column (the mover's chances before its move,
//! at the best move's score, by the game's win/draw/loss model) turned to the attackers'
//! and the defenders' view. The gap between the two lines is the draw's chance.
//!
//! Each side's line is one `<polyline>` with one point a ply, and a `<circle>` on each
//! point, in the side's colour ([`ATTACKERS`] dark, [`DEFENDERS`] blue: `plotters` writes
//! no class, so the tests find the lines by their colour); the attackers' is drawn first. A move the annotation judged (an
//! inaccuracy, a mistake, a blunder) is named above the mover's point.

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use thiserror::Error;

use crate::core::role::Role;
use crate::tools::annotate::annotation::Note;
use crate::tools::annotate::judgement::Judgement;

/// The picture's size, in pixels.
const SIZE: (u32, u32) = (720, 380);
/// The height of the caption and legend above the chart.
const HEAD: u32 = 60;

/// The attackers' line (`#262626`).
pub(crate) const ATTACKERS: RGBColor = RGBColor(38, 38, 38);
/// The defenders' line (`#2F6DB5`).
pub(crate) const DEFENDERS: RGBColor = RGBColor(47, 109, 181);
const JUDGED: RGBColor = RGBColor(192, 57, 43);

/// The chances before one ply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Point {
    /// The ply, from 1.
    pub(crate) ply: usize,
    /// The attackers' win chance, in per mille.
    pub(crate) attackers: u16,
    /// The defenders' win chance, in per mille.
    pub(crate) defenders: u16,
    /// The side to move.
    pub(crate) mover: Role,
    /// What the annotation judged the move played.
    pub(crate) judgement: Option<Judgement>,
}

/// One side's line: its name in the legend, its colour and its chance at a point.
type Line = (&'static str, RGBColor, fn(&Point) -> u16);

/// Why the graph could not be drawn.
#[derive(Debug, Error)]
pub(crate) enum GraphError {
    /// `plotters` refused to draw it.
    #[error("cannot draw the graph: {0}")]
    Draw(#[from] DrawingAreaErrorKind<std::io::Error>),
    /// The file cannot be written.
    #[error("cannot write the graph to {path}: {source}")]
    Write {
        /// The file.
        path: String,
        /// Why.
        source: std::io::Error,
    },
}

/// One point a ply of an annotated game.
pub(crate) fn points(notes: &[Note]) -> Vec<Point> {
    notes
        .iter()
        .map(|n| {
            let wdl = match n.side {
                Role::Attacker => n.wdl,
                Role::Defender => n.wdl.flipped(),
            };
            Point {
                ply: n.ply,
                attackers: wdl.win,
                defenders: wdl.loss,
                mover: n.side,
                judgement: n.judgement,
            }
        })
        .collect()
}

/// Draws the graph of `points` ([`draw`]) into `file`.
pub(crate) fn write(
    caption: &str,
    points: &[Point],
    file: &std::path::Path,
) -> Result<(), GraphError> {
    let svg = draw(caption, points)?;
    std::fs::write(file, svg).map_err(|source| GraphError::Write {
        path: file.display().to_string(),
        source,
    })
}

/// The graph of `points`, captioned `caption`, as SVG text.
pub(crate) fn draw(caption: &str, points: &[Point]) -> Result<String, GraphError> {
    let lines: [Line; 2] = [
        ("attackers win", ATTACKERS, |p| p.attackers),
        ("defenders win", DEFENDERS, |p| p.defenders),
    ];
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
        root.fill(&WHITE)?;
        // The caption and the legend above the chart, where no line can run under them.
        let (head, body) = root.split_vertically(HEAD);
        let centre = i32::try_from(SIZE.0 / 2).unwrap_or(0);
        let style = |size| ("sans-serif", size).into_font().color(&BLACK);
        head.draw_text(
            caption,
            &style(18).pos(Pos::new(HPos::Center, VPos::Top)),
            (centre, 8),
        )?;
        for (i, (name, colour, _)) in (0i32..).zip(lines) {
            let x = centre - 150 + 170 * i;
            head.draw(&PathElement::new(
                [(x, 44), (x + 28, 44)],
                colour.stroke_width(2),
            ))?;
            head.draw_text(
                name,
                &style(14).pos(Pos::new(HPos::Left, VPos::Center)),
                (x + 36, 44),
            )?;
        }
        let last = points.iter().map(|p| p.ply).max().unwrap_or(0);
        let last = u32::try_from(last).unwrap_or(u32::MAX).saturating_add(1);
        let mut chart = ChartBuilder::on(&body)
            .margin(12)
            .x_label_area_size(36)
            .y_label_area_size(48)
            .build_cartesian_2d(0u32..last, 0u32..1000u32)?;
        chart
            .configure_mesh()
            .x_desc("ply")
            .y_desc("win chance before the ply")
            .y_labels(6)
            .y_label_formatter(&|v| format!("{}%", v / 10))
            .light_line_style(WHITE)
            .draw()?;
        let ply = |p: &Point| u32::try_from(p.ply).unwrap_or(u32::MAX);
        for (_, colour, of) in lines {
            chart.draw_series(
                LineSeries::new(
                    points.iter().map(|p| (ply(p), u32::from(of(p)))),
                    colour.stroke_width(2),
                )
                .point_size(3),
            )?;
        }
        // Each judged move named beside the mover's point.
        chart.draw_series(points.iter().filter_map(|p| {
            let judgement = p.judgement?;
            let chance = match p.mover {
                Role::Attacker => p.attackers,
                Role::Defender => p.defenders,
            };
            // Above the point, or below it near the top.
            let (y, anchor) = if chance > 850 {
                (chance.saturating_sub(40), VPos::Top)
            } else {
                (chance.saturating_add(40), VPos::Bottom)
            };
            Some(Text::new(
                judgement.name(),
                (ply(p), u32::from(y)),
                ("sans-serif", 13)
                    .into_font()
                    .color(&JUDGED)
                    .pos(Pos::new(HPos::Center, anchor)),
            ))
        }))?;
        root.present()?;
    }
    Ok(svg)
}
