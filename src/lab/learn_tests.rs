use super::*;
use crate::movegen::profile::Profile;

/// The 12 Hz preset and its built-in set, which the rounds here play.
fn twelve_hz() -> (Profile, Weights) {
    (
        Profile::preset("12hz").expect("a preset"),
        Weights::built_in("12hz").expect("a built-in set"),
    )
}

fn config(threads: usize) -> RoundConfig {
    RoundConfig {
        games: 4,
        level: 29,
        seed: 11,
        threads,
        max_pieces: 40,
        gamma: 0.98,
        levels: (29, 255),
    }
}

#[test]
fn a_round_is_the_same_on_one_thread_and_two_and_its_targets_add_up() {
    let (profile, weights) = twelve_hz();
    let never = AtomicBool::new(false);
    let one = play_round(&config(1), &profile, &weights, &never, |_, _| {});
    let two = play_round(&config(2), &profile, &weights, &never, |_, _| {});
    assert_eq!(one, two);
    assert_eq!(one.len(), 4);
    for (i, g) in one.iter().enumerate() {
        assert_eq!(g.seed, 11 + i as u64);
        assert_eq!(
            g.pieces as usize,
            g.samples.len(),
            "every level is recorded"
        );
        assert!(g.pieces <= 40);
        assert!(g.topped_out || g.pieces == 40);
        // With gamma 1 the first target would be minus every line; with 0.98 it is less.
        let first = -g.samples[0].target;
        assert!(first <= f64::from(g.lines) + 1e-9 && first >= 0.0);
        assert_eq!(
            g.samples[0].rows, [0; 20],
            "a game from level 29 starts empty"
        );
    }
}

#[test]
fn a_stopped_round_returns_only_finished_games() {
    let (profile, weights) = twelve_hz();
    let stop = AtomicBool::new(true);
    assert!(play_round(&config(1), &profile, &weights, &stop, |_, _| {}).is_empty());
}

#[test]
fn a_learned_phase_values_pairs_by_lines_and_the_learned_value_only() {
    let weights = Weights::built_in("12hz").unwrap();
    let value = LearnedValue {
        bias: 1.0,
        table: vec![0.0; crate::search::weights::learned::TABLE_LEN],
        features: [0.0; crate::search::weights::learned::REALS],
    };
    let learned = with_learned(&weights, 29, value.clone());
    let w = learned.at(29);
    assert_eq!(w.learned.as_ref(), Some(&value));
    assert_eq!(w.lines_cleared, -1.0);
    assert!(w.floats().iter().skip(1).all(|(_, v)| *v == 0.0));
    assert_eq!(
        learned.at(18),
        weights.at(18),
        "the other phases are untouched"
    );
    // The file written loads back equal, the learned table included.
    let text = learned.to_toml();
    let back = Weights::from_toml(&text, std::path::Path::new("learned.toml")).unwrap();
    assert_eq!(back, learned);
}

#[test]
fn fitted_weights_play_a_round() {
    let (profile, weights) = twelve_hz();
    let never = AtomicBool::new(false);
    let games = play_round(&config(2), &profile, &weights, &never, |_, _| {});
    let samples: Vec<Sample> = games.iter().flat_map(|g| g.samples.clone()).collect();
    let value = fit(&samples, 1.0).unwrap();
    let learned = with_learned(&weights, 29, value);
    let again = play_round(&config(2), &profile, &learned, &never, |_, _| {});
    assert_eq!(again.len(), 4);
    assert!(again.iter().all(|g| g.pieces > 0));
}

#[test]
fn only_the_learned_phases_levels_are_recorded() {
    let profile = Profile::preset("30hz").unwrap();
    let weights = Weights::built_in("12hz").unwrap();
    let never = AtomicBool::new(false);
    let mut c = config(1);
    c.level = 0;
    c.games = 1;
    c.max_pieces = 120;
    c.levels = (0, 255);
    let all = play_round(&c, &profile, &weights, &never, |_, _| {});
    c.levels = (1, 255);
    let from_1 = play_round(&c, &profile, &weights, &never, |_, _| {});
    let (all, from_1) = (&all[0], &from_1[0]);
    assert_eq!(all.pieces, 120);
    assert_eq!(all.lines, from_1.lines, "the same game");
    // Level 1 comes at 10 lines from 0 (about 25 pieces): the first positions are left out,
    // the later ones are the same with the same targets.
    let skipped = all.samples.len() - from_1.samples.len();
    assert!(skipped > 5 && skipped < 60, "{skipped}");
    assert_eq!(&all.samples[skipped..], &from_1.samples[..]);
}
