//! Tests of the menu state machine: against a small scripted stand-in for the cartridge's menus
//! (equality checks on newly pressed buttons, lost presses during screen loads), and against
//! the real ROM when `NESTOR_ROM` names it.

use super::*;
use crate::game::Game;
use crate::nes::deck::{NesDeck, Video};
use crate::nes::observe::RamSnapshot;

/// The menus as nes-tetris.md §10 describes them, and a game that only knows "topped out".
struct FakeMenus {
    ram: Vec<u8>,
    map: AddressMap,
    frames: u64,
    load: u32,
    held: u8,
    /// Start pressed while a game was being played (it would pause the real game).
    paused: bool,
    /// `levelNumber` as `initGameState` sets it once the play screen has loaded.
    pending_level: Option<u8>,
}

impl FakeMenus {
    fn power_on() -> FakeMenus {
        FakeMenus {
            ram: vec![0; 0x800],
            map: AddressMap::default(),
            frames: 0,
            load: 0,
            held: 0,
            paused: false,
            pending_level: None,
        }
    }

    fn get(&self, addr: u16) -> u8 {
        self.ram[usize::from(addr)]
    }

    fn set(&mut self, addr: u16, v: u8) {
        self.ram[usize::from(addr)] = v;
    }

    fn screen(&mut self, mode: u8) {
        self.set(self.map.game_mode, mode);
        self.load = 4;
    }
}

impl Console for FakeMenus {
    fn frame(&mut self, pad: PadState) -> Result<(), ConsoleError> {
        self.frames += 1;
        if self.load > 0 {
            // NMIs are off during a screen load: no poll, the press is lost.
            self.load -= 1;
            if self.load == 0 {
                if let Some(level) = self.pending_level.take() {
                    self.set(self.map.level, level);
                }
            }
            return Ok(());
        }
        let m = self.map.clone();
        let newly = pad.bits() & !self.held;
        self.held = pad.bits();
        self.set(m.held, self.held);
        self.set(m.newly, newly);
        let sl = self.get(m.start_level);
        match (self.get(m.game_mode), newly) {
            (LEGAL, 0x10) if self.frames >= 268 => self.screen(TITLE),
            (TITLE, 0x10) => self.screen(TYPE_MENU),
            (TYPE_MENU, 0x02) => self.set(m.game_type, 0),
            (TYPE_MENU, 0x01) => self.set(m.game_type, 1),
            (TYPE_MENU, 0x10) => {
                self.set(m.start_level, sl % 10);
                self.screen(LEVEL_MENU);
            }
            (LEVEL_MENU, 0x01) => self.set(m.start_level, (sl + 1).min(9)),
            (LEVEL_MENU, 0x02) => self.set(m.start_level, sl.saturating_sub(1)),
            (LEVEL_MENU, 0x04) if sl < 5 => self.set(m.start_level, sl + 5),
            (LEVEL_MENU, 0x08) if sl >= 5 => self.set(m.start_level, sl - 5),
            (LEVEL_MENU, 0x10) => {
                let level = if self.held == 0x90 { sl + 10 } else { sl };
                // The cartridge sets `startLevel` at once and `levelNumber` only after the
                // play screen loads: until then $64 holds the last game's level (or 0).
                self.set(m.start_level, level);
                self.pending_level = Some(level);
                self.set(m.play_state, 1);
                self.screen(PLAY);
            }
            (PLAY, n) => match self.get(m.play_state) {
                10 if n == 0x10 => self.set(m.play_state, 0),
                0 => {
                    self.set(m.start_level, sl % 10);
                    self.screen(LEVEL_MENU);
                }
                _ if n & 0x10 != 0 => self.paused = true,
                _ => {}
            },
            _ => {}
        }
        Ok(())
    }

    fn ram(&self) -> &[u8] {
        &self.ram
    }

    fn frame_number(&self) -> u64 {
        self.frames
    }
}

#[test]
fn every_start_level_is_reached_from_power_on() {
    for level in 0..=19 {
        let mut c = FakeMenus::power_on();
        c.set(c.map.game_type, 1); // B-type left over: must press Left
        let map = c.map.clone();
        let mut pads = Vec::new();
        let nav = MenuNav::start_game(level).unwrap();
        let n = navigate(&mut c, &map, nav, |p| pads.push(p)).unwrap();
        assert_eq!(n, pads.len() as u64);
        assert_eq!(c.get(map.game_mode), PLAY, "level {level}");
        assert_eq!(c.get(map.start_level), level);
        settle(&mut c);
        assert_eq!(c.get(map.level), level);
        assert_eq!(c.get(map.game_type), 0);
        assert!(n < 400, "level {level}: {n} frames");
        // One button per press, released between presses, except A held into A+Start.
        for w in pads.windows(2) {
            let (a, b) = (w[0].bits(), w[1].bits());
            if a != 0 && b != 0 {
                assert_eq!((a, b), (0x80, 0x90), "level {level}");
            }
        }
    }
}

/// Idle frames until the play screen has loaded (the fake sets `levelNumber` then).
fn settle(c: &mut FakeMenus) {
    for _ in 0..8 {
        c.frame(PadState::NONE).unwrap();
    }
}

/// The fake cartridge from power-on put in game mode `mode`, and its address map.
fn menus_in(mode: u8) -> (FakeMenus, AddressMap) {
    let mut c = FakeMenus::power_on();
    let map = c.map.clone();
    c.set(map.game_mode, mode);
    (c, map)
}

#[test]
fn cursor_left_on_nine_after_a_game_is_moved() {
    let (mut c, map) = menus_in(LEVEL_MENU);
    c.set(map.start_level, 9);
    navigate(&mut c, &map, MenuNav::start_game(3).unwrap(), |_| {}).unwrap();
    assert_eq!(c.get(map.start_level), 3);
    settle(&mut c);
    assert_eq!(c.get(map.level), 3);
}

#[test]
fn back_to_the_level_menu_stops_there_and_starts_nothing() {
    let (mut c, map) = menus_in(PLAY);
    c.set(map.play_state, 10);
    c.set(map.render_mode, 3);
    let mut starts_in_menu = 0;
    navigate(&mut c, &map, MenuNav::back_to_level_menu(), |_| {}).unwrap();
    assert_eq!(c.get(map.game_mode), LEVEL_MENU);
    // Nothing more is pressed: run a few idle frames and check no game started.
    for _ in 0..20 {
        c.frame(PadState::NONE).unwrap();
        starts_in_menu += u32::from(c.get(map.game_mode) != LEVEL_MENU);
    }
    assert_eq!(starts_in_menu, 0);
    // And from there the next game starts at 19.
    c.set(map.level, 23); // the last game's level stays in $64 until the screen loads
    navigate(&mut c, &map, MenuNav::start_game(19).unwrap(), |_| {}).unwrap();
    assert_eq!(c.get(map.start_level), 19);
    settle(&mut c);
    assert_eq!(c.get(map.level), 19);
    assert!(!c.paused);
}

#[test]
fn a_stuck_console_times_out_with_the_state() {
    struct Stuck(Vec<u8>);
    impl Console for Stuck {
        fn frame(&mut self, _: PadState) -> Result<(), ConsoleError> {
            Ok(())
        }
        fn ram(&self) -> &[u8] {
            &self.0
        }
        fn frame_number(&self) -> u64 {
            0
        }
    }
    let map = AddressMap::default();
    let nav = MenuNav::start_game(19).unwrap().with_frame_limit(50);
    let e = navigate(&mut Stuck(vec![0; 0x800]), &map, nav, |_| {}).unwrap_err();
    assert!(
        matches!(
            e,
            MenuError::Timeout {
                frames: 50,
                game_mode: 0,
                ..
            }
        ),
        "{e}"
    );
    assert!(matches!(
        MenuNav::start_game(20),
        Err(MenuError::LevelOutOfRange(20))
    ));
}

#[test]
fn a_game_at_the_wrong_level_is_an_error() {
    let mut ram = vec![0u8; 0x800];
    let map = AddressMap::default();
    ram[usize::from(map.game_mode)] = PLAY;
    ram[usize::from(map.start_level)] = 9; // the +10 press was lost
    ram[usize::from(map.level)] = 19; // $64 is not what the menu chose (it is set later)
    let e = MenuNav::start_game(19)
        .unwrap()
        .next_pad(&ram, &map)
        .unwrap_err();
    assert!(matches!(e, MenuError::WrongLevel { wanted: 19, got: 9 }));
}

/// The real cartridge (`NESTOR_ROM`) taken through the menus to a game from `level`, its
/// address map and the frames that took.
fn rom_game(level: u8) -> (NesDeck, AddressMap, u64) {
    let rom = crate::nes::rom::rom_for_tests();
    let map = AddressMap::default();
    let mut deck = NesDeck::new(&rom, Video::Headless).unwrap();
    let nav = MenuNav::start_game(level).unwrap();
    let frames = navigate(&mut deck, &map, nav, |_| {}).unwrap_or_else(|e| panic!("{e}"));
    (deck, map, frames)
}

/// Needs the real cartridge.
#[test]
#[cfg_attr(not(nestor_rom), ignore = "needs NESTOR_ROM (your own Tetris ROM)")]
fn real_rom_boots_to_a_level_19_game() {
    let (mut deck, _, frames) = rom_game(19);
    eprintln!("level-19 game running after {frames} frames");
    assert_eq!(deck.ram()[0xC0], 4);
    assert_eq!(deck.ram()[0x67], 19, "startLevel");
    // `levelNumber` is copied from `startLevel` once the play screen has loaded.
    for _ in 0..30 {
        if deck.ram()[0xA7] == 2 {
            break;
        }
        deck.frame(PadState::NONE).unwrap();
    }
    assert_eq!(deck.ram()[0x64], 19, "levelNumber");
    // RAM reads are exact: the frame counter advances by one per frame.
    let fc = |d: &NesDeck| u16::from_le_bytes([d.ram()[0xB1], d.ram()[0xB2]]);
    for _ in 0..10 {
        let before = fc(&deck);
        deck.frame(PadState::NONE).unwrap();
        assert_eq!(fc(&deck), before.wrapping_add(1));
    }
    // nes-tetris.md §1.3: a one-frame Left tap moves the piece within the same call (the
    // 96-frame first-piece delay holds the piece at the top meanwhile).
    assert_eq!(deck.ram()[0x68], 1, "piece not controllable");
    let x = deck.ram()[0x60];
    deck.frame(PadState::LEFT).unwrap();
    assert_eq!(
        deck.ram()[0x60],
        x - 1,
        "Left was not applied in its own frame"
    );
}

/// Needs the real cartridge: the rules model, started from RAM, stays equal to the cartridge.
#[test]
#[cfg_attr(not(nestor_rom), ignore = "needs NESTOR_ROM (your own Tetris ROM)")]
fn real_rom_and_model_agree_from_ram() {
    let (mut deck, map, _) = rom_game(18);
    // `gameMode` turns 4 before `initGameState` has run: wait for the first play frame.
    for _ in 0..30 {
        let s = RamSnapshot::read(deck.ram(), &map);
        if s.play_state == 1 && s.game_mode_state == 2 && s.to_game().is_ok() {
            break;
        }
        deck.frame(PadState::NONE).unwrap();
    }
    let mut game: Game = RamSnapshot::read(deck.ram(), &map)
        .to_game()
        .unwrap_or_else(|e| panic!("{e}"));
    let mut x = 0x2545_F491_4F6C_DD1Du64;
    for f in 0..3000u64 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let pad = PadState([0, 0, 0, 0x01, 0x02, 0x80, 0x40, 0x04][(x % 8) as usize]);
        deck.frame(pad).unwrap();
        game.step(pad);
        let want = RamSnapshot::read(deck.ram(), &map);
        assert_eq!(RamSnapshot::shown(&game), want, "frame {f}");
        if game.is_over() {
            break;
        }
    }
}

#[test]
fn a_menu_wait_holds_nothing_on_the_level_menu_for_that_many_frames_then_starts() {
    for level in [3, 13] {
        let run = |wait| {
            let (mut c, map) = menus_in(LEVEL_MENU);
            let mut pads = Vec::new();
            let nav = MenuNav::start_game(level).unwrap().with_wait(wait);
            navigate(&mut c, &map, nav, |p| pads.push(p)).unwrap();
            assert_eq!(c.get(map.game_mode), PLAY, "level {level}, wait {wait}");
            assert_eq!(c.get(map.start_level), level);
            pads
        };
        let (plain, waited) = (run(0), run(40));
        assert_eq!(waited.len(), plain.len() + 40, "level {level}");
        // The same presses, the wait inserted as released frames before the first start
        // press (A, for the +10 levels).
        let first = |p: &[PadState]| {
            p.iter()
                .position(|b| b.contains(PadState::START) || b.contains(PadState::A))
                .unwrap()
        };
        let (a, b) = (first(&plain), first(&waited));
        assert_eq!(b, a + 40);
        assert!(waited[a..b].iter().all(|p| *p == PadState::NONE));
        assert_eq!(&waited[b..], &plain[a..]);
    }
}
