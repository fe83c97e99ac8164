//! What the ratings of a run add up to: counts per class, accuracy overall and per level,
//! the worst placements; and the one row per piece that the CSV and the JSON share.

use serde::Serialize;

use crate::search::explain::PlacementView;

use super::analysis::{Moment, Rating, Verdict};
use super::classes::Class;

/// Accuracy is the share of placements rated best or good.
pub fn accurate(class: Class) -> bool {
    class <= Class::Good
}

/// Placements and accuracy at one level.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct LevelAccuracy {
    /// The level (`levelNumber` at the spawn).
    pub level: u8,
    /// Placements rated at this level.
    pub pieces: u32,
    /// Share of them rated best or good (0-1).
    pub accuracy: f64,
}

/// The totals of a run.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Summary {
    /// Games, counted as the highest game number among the ratings.
    pub games: u32,
    /// Placements rated.
    pub pieces: u32,
    /// Share of placements rated best or good (0-1).
    pub accuracy: f64,
    /// Share of placements rated best (0-1).
    pub best_share: f64,
    /// Placements per class, best first (in JSON an object keyed by class name).
    #[serde(serialize_with = "counts_by_name")]
    pub counts: Vec<(Class, u32)>,
    /// Placements the move set does not reach (valued directly).
    pub outside_move_set: u32,
    /// Accuracy per level, in ascending level order.
    pub per_level: Vec<LevelAccuracy>,
    /// Indices into the ratings of the worst placements, worst first.
    #[serde(skip)]
    pub worst: Vec<usize>,
}

fn counts_by_name<S: serde::Serializer>(counts: &[(Class, u32)], s: S) -> Result<S::Ok, S::Error> {
    use serde::ser::SerializeMap;
    let mut m = s.serialize_map(Some(counts.len()))?;
    for (class, n) in counts {
        m.serialize_entry(class.name(), n)?;
    }
    m.end()
}

/// Worse first: a rejected placement (no loss) before any loss, then larger losses, then the
/// earlier frame.
fn worse(a: &Rating, b: &Rating) -> std::cmp::Ordering {
    let key = |r: &Rating| r.verdict.loss.unwrap_or(f64::INFINITY);
    key(b).total_cmp(&key(a)).then(a.at.frame.cmp(&b.at.frame))
}

impl Summary {
    /// The totals of `ratings`, with at most `worst` of the worst placements (none rated best)
    /// picked out.
    pub fn new(ratings: &[Rating], worst: usize) -> Summary {
        let n = ratings.len() as u32;
        let share = |k: usize| if n == 0 { 0.0 } else { k as f64 / f64::from(n) };
        let counts = Class::ALL
            .iter()
            .map(|&c| {
                (
                    c,
                    ratings.iter().filter(|r| r.verdict.class == c).count() as u32,
                )
            })
            .collect();
        let mut per_level: Vec<LevelAccuracy> = Vec::new();
        for r in ratings {
            let i = match per_level.iter().position(|l| l.level == r.at.level) {
                Some(i) => i,
                None => {
                    per_level.push(LevelAccuracy {
                        level: r.at.level,
                        pieces: 0,
                        accuracy: 0.0,
                    });
                    per_level.len() - 1
                }
            };
            let l = &mut per_level[i];
            l.accuracy = (l.accuracy * f64::from(l.pieces)
                + f64::from(u8::from(accurate(r.verdict.class))))
                / f64::from(l.pieces + 1);
            l.pieces += 1;
        }
        per_level.sort_by_key(|l| l.level);
        let mut order: Vec<usize> = (0..ratings.len())
            .filter(|&i| ratings[i].verdict.class != Class::Best)
            .collect();
        order.sort_by(|&a, &b| worse(&ratings[a], &ratings[b]));
        order.truncate(worst);
        Summary {
            games: ratings.iter().map(|r| r.at.game).max().unwrap_or(0),
            pieces: n,
            accuracy: share(ratings.iter().filter(|r| accurate(r.verdict.class)).count()),
            best_share: share(
                ratings
                    .iter()
                    .filter(|r| r.verdict.class == Class::Best)
                    .count(),
            ),
            counts,
            outside_move_set: ratings.iter().filter(|r| !r.verdict.reachable).count() as u32,
            per_level,
            worst: order,
        }
    }

    /// The plain-text summary (the worst placements listed from `ratings`).
    pub fn text(&self, ratings: &[Rating]) -> String {
        let mut out = format!(
            "{} placements in {} game(s): accuracy {:.1} % (best or good), best {:.1} %\n",
            self.pieces,
            self.games,
            100.0 * self.accuracy,
            100.0 * self.best_share
        );
        let counts: Vec<String> = self
            .counts
            .iter()
            .map(|(c, n)| format!("{c} {n}"))
            .collect();
        out.push_str(&counts.join(", "));
        out.push('\n');
        if self.outside_move_set > 0 {
            out.push_str(&format!(
                "{} placement(s) the profile cannot reach, valued directly\n",
                self.outside_move_set
            ));
        }
        let levels: Vec<String> = self
            .per_level
            .iter()
            .map(|l| format!("{} {:.0} % ({})", l.level, 100.0 * l.accuracy, l.pieces))
            .collect();
        out.push_str(&format!("accuracy by level: {}\n", levels.join(", ")));
        if self.worst.is_empty() {
            out.push_str(&format!(
                "no placement worse than the best: all {} were the best\n",
                self.pieces
            ));
        } else {
            out.push_str("worst placements:\n");
        }
        for &i in &self.worst {
            out.push_str(&format!("  {}\n", line(&ratings[i])));
        }
        out
    }
}

/// One rating in words: when, what, how bad.
pub fn line(r: &Rating) -> String {
    let at = |p: &PlacementView| p.words();
    let loss = r
        .verdict
        .loss
        .map_or("leaves no playable pair".to_string(), |l| {
            format!("loss {l:.2}")
        });
    format!(
        "frame {} (game {}, piece {}, level {}, lines {}): {} at {}: rank {} of {}, {loss}, {}; best {}",
        r.at.frame,
        r.at.game,
        r.at.piece_number,
        r.at.level,
        r.at.lines,
        r.piece.letter(),
        at(&PlacementView::from(&r.player)),
        r.verdict.rank,
        r.verdict.placements,
        r.verdict.class,
        at(&PlacementView::from(&r.best)),
    )
}

/// One row per piece (CSV and JSON): the rating with its pieces as letters and its
/// placements as coordinates.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Row {
    /// Which piece, when, and the counters at its spawn.
    #[serde(flatten)]
    pub at: Moment,
    /// The piece's letter.
    pub piece: char,
    /// The next piece's letter, if known.
    pub next: Option<char>,
    /// The player's pivot column.
    pub x: u8,
    /// The player's pivot row (−2 and −1 are the hidden rows).
    pub y: i8,
    /// The player's orientation id ($00-$12).
    pub orientation: u8,
    /// The best placement's pivot column.
    pub best_x: u8,
    /// The best placement's pivot row.
    pub best_y: i8,
    /// The best placement's orientation id.
    pub best_orientation: u8,
    /// How the player's placement compares with the best.
    #[serde(flatten)]
    pub verdict: Verdict,
}

/// The CSV header, in the order of `Row`'s fields.
pub const CSV_HEADER: &str = "game,piece_number,frame,lock_frame,level,lines,score,piece,next,x,y,orientation,best_x,best_y,best_orientation,rank,placements,value,best_value,loss,class,reachable";

impl Row {
    /// The row for rating `r`.
    pub fn of(r: &Rating) -> Row {
        let p = PlacementView::from(&r.player);
        let b = PlacementView::from(&r.best);
        Row {
            at: r.at,
            piece: r.piece.letter(),
            next: r.next.map(|n| n.letter()),
            x: p.x,
            y: p.y,
            orientation: p.orientation,
            best_x: b.x,
            best_y: b.y,
            best_orientation: b.orientation,
            verdict: r.verdict,
        }
    }

    /// The CSV line (no newline); an absent value is an empty field.
    pub fn csv(&self) -> String {
        let opt = |v: Option<f64>| v.map_or(String::new(), |v| format!("{v}"));
        format!(
            "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}",
            self.at.game,
            self.at.piece_number,
            self.at.frame,
            self.at.lock_frame,
            self.at.level,
            self.at.lines,
            self.at.score,
            self.piece,
            self.next.map_or(String::new(), String::from),
            self.x,
            self.y,
            self.orientation,
            self.best_x,
            self.best_y,
            self.best_orientation,
            self.verdict.rank,
            self.verdict.placements,
            opt(self.verdict.value),
            opt(self.verdict.best_value),
            opt(self.verdict.loss),
            self.verdict.class,
            self.verdict.reachable
        )
    }
}
