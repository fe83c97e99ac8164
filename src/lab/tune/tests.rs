//! Tuning tests: the tunable keys and their round trip, the refit and its sampling, a saved run
//! that resumes exactly, bad state files, and shards of a generation gathered as one machine's.

use super::*;
use crate::search::PhaseWeights;

static GO: AtomicBool = AtomicBool::new(false);

fn config(generations: u32) -> TuneConfig {
    let start = Weights::default();
    TuneConfig {
        objective: Objective::Lines,
        level: 19,
        max_pieces: Some(12),
        max_lines: 3000,
        population: 4,
        elite: 2,
        generations,
        games: 2,
        seed: 7,
        sigma: 0.5,
        noise: 0.1,
        phase: None,
        keys: tunable_keys(&start, None, 19..=255).expect("keys"),
        start,
        command: "test".into(),
        profile: crate::movegen::profile::Profile::default(),
    }
}

/// Plays every pending candidate and ends the generation, as `nestor tune` does.
fn step(state: &mut TuneState) {
    let pending = state.sample().clone();
    for (j, c) in pending.candidates.iter().enumerate() {
        let w = state.weights(c).expect("weights");
        let r = play_generation(
            &state.config,
            &Standard::new(w.clone()),
            pending.generation,
            2,
            &GO,
            |_| {},
        )
        .expect("not stopped");
        state.pending.as_mut().expect("pending").scores[j] =
            Some(fitness(state.config.objective, &r));
    }
    state.finish_generation().expect("all scored");
}

#[test]
fn tunable_keys_are_the_feature_weights_without_the_bonuses() {
    let keys = tunable_keys(&Weights::default(), None, 19..=255).expect("keys");
    let per_phase = PhaseWeights::floats(&Weights::default().phases[0].weights).len() - 2;
    assert_eq!(keys.len(), 2 * per_phase, "{keys:?}");
    assert!(keys.iter().any(|k| k == "score.pile_height"));
    assert!(keys.iter().any(|k| k == "killscreen.top_rows_penalty"));
    assert!(!keys
        .iter()
        .any(|k| k.contains("bonus") || k.ends_with(".top_rows")));
    let killscreen = tunable_keys(&Weights::default(), Some("killscreen"), 19..=255).expect("keys");
    assert_eq!(killscreen.len(), per_phase);
    assert!(killscreen.iter().all(|k| k.starts_with("killscreen.")));
    // Games that stop at the level-29 transition never play the killscreen phase: it is not
    // tuned (it would only drift), and asking for it is an error that says why.
    let before_29 = Objective::ScoreAt29.levels(19);
    assert_eq!(before_29, 19..=28);
    let keys = tunable_keys(&Weights::default(), None, before_29.clone()).expect("keys");
    assert!(keys.iter().all(|k| k.starts_with("score.")), "{keys:?}");
    let err =
        tunable_keys(&Weights::default(), Some("killscreen"), before_29).expect_err("unplayed");
    assert!(err.to_string().contains("never reach"), "{err}");
    let err = tunable_keys(&Weights::default(), Some("nope"), 0..=255).expect_err("no phase");
    assert!(err.to_string().contains("`nope`"), "{err}");
}

#[test]
fn params_round_trip_through_the_weights() {
    let keys = tunable_keys(&Weights::default(), None, 0..=255).expect("keys");
    let params: Vec<f64> = (0..keys.len()).map(|i| i as f64 * 0.25 - 1.0).collect();
    let w = apply(&Weights::default(), &keys, &params).expect("applies");
    let at = |k: &str| params[keys.iter().position(|x| x == k).unwrap()];
    assert_eq!(
        w.phases[1].weights.pile_height,
        at("killscreen.pile_height")
    );
    assert_eq!(w.phases[0].weights.pile_height, at("score.pile_height"));
    assert_eq!(
        w.phases[0].weights.tetris_now_bonus,
        Weights::default().phases[0].weights.tetris_now_bonus
    );
    assert_eq!(read_params(&w, &keys).expect("reads"), params);
}

#[test]
fn refit_takes_the_elite_mean_and_spread_plus_noise() {
    let mut state = TuneState::new(config(2)).expect("state");
    let dims = state.mean.len();
    state.sample();
    let p = state.pending.as_mut().expect("pending");
    p.candidates = (0..4).map(|i| vec![i as f64; dims]).collect();
    p.scores = vec![Some(1.0), Some(5.0), Some(3.0), Some(5.0)];
    let record = state.finish_generation().expect("finished");
    // Elite: candidates 1 and 3 (score 5, tie to the lower index first): mean 2, variance 1,
    // plus the noise 0.1 at generation 0 of 2.
    assert_eq!(state.mean, vec![2.0; dims]);
    assert!(state
        .sigma
        .iter()
        .all(|s| (s - 1.1f64.sqrt()).abs() < 1e-12));
    assert_eq!((record.best, record.elite_mean), (5.0, 5.0));
    assert_eq!(state.best.as_ref().map(|b| b.1), Some(5.0));
    assert_eq!(state.generation, 1);
    assert!(state.pending.is_none());
    // Not every candidate scored: the generation cannot end.
    state.sample();
    state.pending.as_mut().unwrap().scores[0] = Some(1.0);
    assert!(state.finish_generation().is_none());
}

#[test]
fn sampling_depends_only_on_the_seed_and_the_generation() {
    let mut a = TuneState::new(config(3)).expect("state");
    let mut b = TuneState::new(config(3)).expect("state");
    assert_eq!(a.sample().candidates, b.sample().candidates);
    let first = a.sample().candidates.clone();
    a.generation = 1;
    a.pending = None;
    assert_ne!(a.sample().candidates, first);
}

#[test]
fn a_saved_and_reloaded_run_ends_exactly_like_an_unbroken_one() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("state.json");
    let mut straight = TuneState::new(config(2)).expect("state");
    step(&mut straight);
    step(&mut straight);

    let mut broken = TuneState::new(config(2)).expect("state");
    step(&mut broken);
    // Stop in the middle of generation 2: one candidate scored.
    broken.sample();
    let w = broken
        .weights(&broken.pending.as_ref().unwrap().candidates[0])
        .unwrap();
    let r = play_generation(&broken.config, &Standard::new(w.clone()), 1, 1, &GO, |_| {})
        .expect("not stopped");
    broken.pending.as_mut().unwrap().scores[0] = Some(fitness(Objective::Lines, &r));
    broken.save(&path).expect("saved");
    let mut resumed = TuneState::load(&path).expect("loads");
    assert_eq!(resumed, broken, "the state file holds the run exactly");
    step(&mut resumed);
    assert_eq!(resumed, straight);
    assert_eq!(resumed.result().unwrap(), straight.result().unwrap());
}

#[test]
fn truncated_foreign_and_other_version_states_are_errors() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("state.json");
    let mut state = TuneState::new(config(2)).expect("state");
    state.sample();
    state.save(&path).expect("saved");
    let text = std::fs::read_to_string(&path).expect("read");

    let cut = dir.path().join("cut.json");
    std::fs::write(&cut, &text[..text.len() - 40]).expect("write");
    let err = TuneState::load(&cut).expect_err("truncated").to_string();
    assert!(
        err.contains("cut.json") && err.contains("truncated"),
        "{err}"
    );

    let old = dir.path().join("old.json");
    let version = format!("\"version\": \"{}\"", env!("CARGO_PKG_VERSION"));
    std::fs::write(&old, text.replace(&version, "\"version\": \"0.0.1\"")).expect("write");
    let err = TuneState::load(&old)
        .expect_err("other version")
        .to_string();
    assert!(err.contains("old.json") && err.contains("0.0.1"), "{err}");

    let other = dir.path().join("other.json");
    std::fs::write(&other, "{\"format\": \"nestor-sim-shard\"}").expect("write");
    let err = TuneState::load(&other).expect_err("foreign").to_string();
    assert!(
        err.contains("other.json") && err.contains("not a nestor tune"),
        "{err}"
    );

    let missing = dir.path().join("none.json");
    let err = TuneState::load(&missing).expect_err("missing").to_string();
    assert!(err.contains("none.json"), "{err}");
}

#[test]
fn shard_scores_gather_into_the_same_generation_as_one_machine() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut here = TuneState::new(config(1)).expect("state");
    let mut sharded = here.clone();
    step(&mut here);

    sharded.sample();
    let mut paths = Vec::new();
    for index in 1..=3 {
        let shard = crate::lab::shard::ShardSpec { index, count: 3 };
        let file = scores::score_shard(&mut sharded.clone(), shard, 1, &GO, |_| {})
            .expect("scores")
            .expect("not stopped");
        let path = dir.path().join(format!("s{index}.json"));
        scores::write(&path, &file).expect("written");
        paths.push(path);
    }
    // A missing shard leaves the state as it was.
    let before = sharded.clone();
    let err = scores::gather(&mut sharded, &paths[..2]).expect_err("missing");
    assert!(
        err.to_string().contains("no score for candidates [2, 3]"),
        "{err}"
    );
    assert_eq!(sharded, before);

    scores::gather(&mut sharded, &paths).expect("gathers");
    sharded.finish_generation().expect("finished");
    assert_eq!(sharded, here);

    // Scores of another run are refused, naming the file.
    let mut other = TuneState::new(TuneConfig {
        seed: 8,
        ..config(1)
    })
    .expect("state");
    other.sample();
    let err = scores::gather(&mut other, &paths)
        .expect_err("other run")
        .to_string();
    assert!(
        err.contains("s1.json") && err.contains("another run"),
        "{err}"
    );
}
