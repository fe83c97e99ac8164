use super::*;

#[test]
fn placeholder_compiles() {
    let g = Game::new(19, 0x8988, 0, 0);
    assert_eq!(g.play_state, PlayState::Control);
}
