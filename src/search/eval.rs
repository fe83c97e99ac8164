//! TEMPORARY stub of the evaluation API (replaced by the real 17-feature evaluation).
//! Keeps the planner compiling until the evaluation lands.

use crate::game::{Board, Orientation};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Placement {
    pub x: u8,
    pub y: u8,
    pub orientation: Orientation,
}

pub struct PairOutcome<'a> {
    pub first: Placement,
    pub second: Placement,
    pub lines_first: u32,
    pub lines_second: u32,
    pub board: &'a Board,
}

pub trait Evaluator: Sync {
    fn evaluate(&self, outcome: &PairOutcome) -> Option<f64>;
}

pub struct Standard;

impl Evaluator for Standard {
    fn evaluate(&self, o: &PairOutcome) -> Option<f64> {
        let h = o.board.column_heights();
        let holes: u32 = (0..10)
            .map(|c| {
                let top = 20 - h[c] as usize;
                (top..20)
                    .filter(|&r| !o.board.filled(r as i8, c as u8))
                    .count() as u32
            })
            .sum();
        let bump: i32 = h
            .windows(2)
            .map(|w| (w[0] as i32 - w[1] as i32).abs())
            .sum();
        let max = *h.iter().max().unwrap_or(&0) as f64;
        Some(holes as f64 * 5.0 + bump as f64 + max - (o.lines_first + o.lines_second) as f64)
    }
}
