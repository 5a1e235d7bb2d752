//! Ataxx rules as Botzone's judge applies them.
//!
//! Differences from the usual Ataxx rules (libataxx, Fairy-Stockfish) that decide games:
//! - there is no pass: after any move, if either side has no move the game ends at once
//!   and a side that can still move is credited with every empty square;
//! - the game ends after `MOVE_CAP` moves;
//! - a move that repeats an earlier pair of consecutive board snapshots (CIRCULAR_MOVE)
//!   is illegal.

use super::bitboard::{Bitboard, Square, RING1, RING2};
use crate::game::{Game, Outcome, Player, Rules};
use std::fmt;

/// After this many moves the game ends and pieces are counted.
pub const MOVE_CAP: u16 = 401;

/// A move from `from` to `to`. At distance 1 it is a clone (the source stays),
/// at distance 2 a jump (the source empties).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Move {
    pub from: Square,
    pub to: Square,
}

impl Move {
    pub fn is_jump(self) -> bool {
        RING2[self.from as usize].contains(self.to)
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let (x0, y0) = Bitboard::coords(self.from);
        let (x1, y1) = Bitboard::coords(self.to);
        write!(f, "({x0},{y0})->({x1},{y1})")
    }
}

/// The board as the judge snapshots it: right after the piece is placed, before flips.
type Snapshot = [Bitboard; 2];

/// Pieces, side to move and move count: every rule except repetition, which needs
/// history. `Copy`, so search engines use it as their model of the game (at the cost of
/// not seeing CIRCULAR_MOVE below the root, where it is rare); the judge and the bots'
/// root moves use [`Position`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Board {
    pieces: [Bitboard; 2],
    to_move: Player,
    ply: u16,
}

impl Board {
    pub fn new(first: Bitboard, second: Bitboard, to_move: Player, ply: u16) -> Board {
        Board { pieces: [first, second], to_move, ply }
    }

    pub fn pieces(&self, player: Player) -> Bitboard {
        self.pieces[player.index()]
    }
    pub fn empty(&self) -> Bitboard {
        self.pieces[0].or(self.pieces[1]).not()
    }
    pub fn ply(&self) -> u16 {
        self.ply
    }

    /// Whether `player` has any clone or jump (the judge's end-of-game test looks at the
    /// board only, not at the repetition rule).
    pub fn can_move(&self, player: Player) -> bool {
        !self.pieces(player).dilate().dilate().and(self.empty()).is_empty()
    }

    /// Every move by clone target and by jump source/target (libataxx's counting). Clones
    /// use the lowest-index adjacent source.
    pub fn generate(&self, moves: &mut Vec<Move>) {
        moves.clear();
        let own = self.pieces(self.to_move);
        let empty = self.empty();
        for to in own.dilate().and(empty).iter() {
            let from = RING1[to as usize].and(own).0.trailing_zeros() as Square;
            moves.push(Move { from, to });
        }
        for from in own.iter() {
            for to in RING2[from as usize].and(empty).iter() {
                moves.push(Move { from, to });
            }
        }
    }

    /// The judge's snapshot after `mv`: the piece placed, nothing flipped yet.
    fn snapshot_after(&self, mv: Move) -> Snapshot {
        let me = self.to_move.index();
        let mut snap = self.pieces;
        if mv.is_jump() {
            snap[me] = snap[me].without(mv.from);
        }
        snap[me] = snap[me].with(mv.to);
        snap
    }

    /// Plays a geometrically legal move.
    pub fn make(&mut self, mv: Move) {
        self.place(mv.to, mv.is_jump().then_some(mv.from));
    }

    /// How many enemy pieces `mv` turns.
    pub fn flips(&self, mv: Move) -> u32 {
        RING1[mv.to as usize].and(self.pieces(self.to_move.other())).count()
    }

    /// Botzone's end test, applied after every move.
    pub fn judge(&self) -> Option<Outcome> {
        if self.ply == 0 {
            return None;
        }
        let mover = self.to_move.other();
        if self.pieces(self.to_move).is_empty() {
            return Some(Outcome::Win(mover));
        }
        let can = [self.can_move(Player::First), self.can_move(Player::Second)];
        if can[0] && can[1] && self.ply < MOVE_CAP {
            return None;
        }
        let [a, b] = self.final_counts(can);
        Some(match a.cmp(&b) {
            std::cmp::Ordering::Greater => Outcome::Win(Player::First),
            std::cmp::Ordering::Less => Outcome::Win(Player::Second),
            std::cmp::Ordering::Equal => Outcome::Draw,
        })
    }

    /// Piece counts as the judge scores a finished game: a side that can still move while
    /// the other cannot is credited with every empty square.
    pub fn final_counts(&self, can: [bool; 2]) -> [u32; 2] {
        let mut count = [self.pieces[0].count(), self.pieces[1].count()];
        let empties = self.empty().count();
        match can {
            [true, false] => count[0] += empties,
            [false, true] => count[1] += empties,
            _ => {}
        }
        count
    }

    /// Counts leaf positions `depth` moves ahead with libataxx's counting (clones per
    /// target, jumps per source and target), Botzone's end rule and no repetition rule
    /// (the repetition rule depends on history, not on the move generator). The last
    /// ply is counted in bulk without playing it.
    pub fn perft(&self, depth: u32) -> u64 {
        if self.judge().is_some() {
            return 0;
        }
        if depth == 0 {
            return 1;
        }
        let own = self.pieces(self.to_move);
        let empty = self.empty();
        if depth == 1 {
            let clones = own.dilate().and(empty).count() as u64;
            let jumps: u64 = own.iter().map(|s| RING2[s as usize].and(empty).count() as u64).sum();
            return clones + jumps;
        }
        // Moves straight from the bitboards (no move list): clones by target, then jumps.
        let mut total = 0;
        for to in own.dilate().and(empty).iter() {
            let mut child = *self;
            child.place(to, None);
            total += child.perft(depth - 1);
        }
        for from in own.iter() {
            for to in RING2[from as usize].and(empty).iter() {
                let mut child = *self;
                child.place(to, Some(from));
                total += child.perft(depth - 1);
            }
        }
        total
    }

    /// Plays a clone (`jump_from` None) or a jump to `to`, flipping the neighbours.
    fn place(&mut self, to: Square, jump_from: Option<Square>) {
        let me = self.to_move.index();
        let mut own = self.pieces[me];
        if let Some(from) = jump_from {
            own = own.without(from);
        }
        let flips = RING1[to as usize].and(self.pieces[1 - me]);
        self.pieces[me] = own.with(to).or(flips);
        self.pieces[1 - me] = self.pieces[1 - me].and(flips.not());
        self.ply += 1;
        self.to_move = self.to_move.other();
    }
}

impl Game for Board {
    const MOVE_SPACE: usize = 49 * 49;

    /// A single move is the same move from whichever neighbour it is made (the source
    /// only satisfies Botzone's notation), so it takes the index `to * 49 + to`, which no
    /// jump has; a jump's is `from * 49 + to`.
    fn move_index(mv: Move) -> usize {
        let from = if mv.is_jump() { mv.from } else { mv.to };
        usize::from(from) * 49 + usize::from(mv.to)
    }

    type Move = Move;

    fn to_move(&self) -> Player {
        self.to_move
    }

    fn legal_moves(&self, moves: &mut Vec<Move>) {
        if self.judge().is_some() {
            moves.clear();
        } else {
            self.generate(moves);
        }
    }

    fn play(&mut self, mv: Move) {
        self.make(mv);
    }

    fn outcome(&self) -> Option<Outcome> {
        self.judge()
    }
}

/// A position with the history the repetition rule needs: the exact game as the judge
/// plays it.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Position {
    board: Board,
    /// Snapshots since the last clone (that clone's included), or since the start.
    /// A clone adds a piece and no move removes one, so a repeated pair of snapshots
    /// can only lie inside a run of jumps: older snapshots can never match again.
    snapshots: Vec<Snapshot>,
}

impl Default for Position {
    fn default() -> Self {
        Self::start()
    }
}

impl Position {
    /// Black (first) on (0,0) and (6,6), white on (6,0) and (0,6); black to move.
    pub fn start() -> Position {
        let sq = Bitboard::square;
        let black = Bitboard::EMPTY.with(sq(0, 0)).with(sq(6, 6));
        let white = Bitboard::EMPTY.with(sq(6, 0)).with(sq(0, 6));
        Position::from_parts(black, white, Player::First, 0)
    }

    /// A position without history (for tests, fixtures and benchmarks).
    pub fn from_parts(first: Bitboard, second: Bitboard, to_move: Player, ply: u16) -> Position {
        Position { board: Board::new(first, second, to_move, ply), snapshots: vec![[first, second]] }
    }

    /// The position without its history.
    pub fn board(&self) -> &Board {
        &self.board
    }
    pub fn pieces(&self, player: Player) -> Bitboard {
        self.board.pieces(player)
    }
    pub fn empty(&self) -> Bitboard {
        self.board.empty()
    }
    pub fn ply(&self) -> u16 {
        self.board.ply
    }
    pub fn can_move(&self, player: Player) -> bool {
        self.board.can_move(player)
    }

    /// Every (source, target) pair the judge accepts: a clone target reachable from two
    /// pieces appears twice.
    pub fn source_target_pairs(&self) -> Vec<Move> {
        if self.outcome().is_some() {
            return Vec::new();
        }
        let own = self.pieces(self.board.to_move);
        let empty = self.empty();
        let mut moves = Vec::new();
        for from in own.iter() {
            for to in RING1[from as usize].or(RING2[from as usize]).and(empty).iter() {
                let mv = Move { from, to };
                if !self.is_circular(mv) {
                    moves.push(mv);
                }
            }
        }
        moves
    }

    /// CIRCULAR_MOVE: with the move as move m, the pair (snapshot m-1, snapshot m) equals an
    /// earlier pair (snapshot i, snapshot i+1) with i <= m-3.
    pub fn is_circular(&self, mv: Move) -> bool {
        let n = self.snapshots.len();
        if n < 3 || !mv.is_jump() {
            return false;
        }
        let last = self.snapshots[n - 1];
        let next = self.board.snapshot_after(mv);
        (0..n - 2).any(|i| self.snapshots[i] == last && self.snapshots[i + 1] == next)
    }

    /// Why `mv` is illegal here, or `Ok`.
    pub fn check(&self, mv: Move) -> Result<(), String> {
        if self.outcome().is_some() {
            return Err("the game is already over".into());
        }
        if mv.from >= 49 || mv.to >= 49 {
            return Err("square off the board".into());
        }
        let (x0, y0) = Bitboard::coords(mv.from);
        let (x1, y1) = Bitboard::coords(mv.to);
        if !self.pieces(self.board.to_move).contains(mv.from) {
            return Err(format!("no piece of the side to move on ({x0},{y0})"));
        }
        if !self.empty().contains(mv.to) {
            return Err(format!("target ({x1},{y1}) is not empty"));
        }
        if !RING1[mv.from as usize].or(RING2[mv.from as usize]).contains(mv.to) {
            return Err(format!("({x0},{y0}) to ({x1},{y1}) is neither a clone nor a jump"));
        }
        if self.is_circular(mv) {
            return Err("CIRCULAR_MOVE: repeats an earlier pair of positions".into());
        }
        Ok(())
    }

    /// Checked play.
    pub fn try_play(&mut self, mv: Move) -> Result<(), String> {
        self.check(mv)?;
        self.play_unchecked(mv);
        Ok(())
    }

    fn play_unchecked(&mut self, mv: Move) {
        let snap = self.board.snapshot_after(mv);
        if !mv.is_jump() {
            self.snapshots.clear();
        }
        self.snapshots.push(snap);
        self.board.make(mv);
    }

    pub fn perft(&self, depth: u32) -> u64 {
        self.board.perft(depth)
    }
}

impl Game for Position {
    const MOVE_SPACE: usize = Board::MOVE_SPACE;

    fn move_index(mv: Move) -> usize {
        Board::move_index(mv)
    }

    type Move = Move;

    fn to_move(&self) -> Player {
        self.board.to_move
    }

    fn legal_moves(&self, moves: &mut Vec<Move>) {
        self.board.legal_moves(moves);
        if self.snapshots.len() >= 3 {
            moves.retain(|&mv| !self.is_circular(mv));
        }
    }

    fn play(&mut self, mv: Move) {
        debug_assert_eq!(self.check(mv), Ok(()), "{mv} in\n{self}");
        self.play_unchecked(mv);
    }

    fn outcome(&self) -> Option<Outcome> {
        if let Some(outcome) = self.board.judge() {
            return Some(outcome);
        }
        // A side whose every move is CIRCULAR_MOVE must play an illegal move and lose.
        if self.snapshots.len() >= 3 {
            let mut moves = Vec::new();
            self.board.generate(&mut moves);
            if moves.iter().all(|&mv| self.is_circular(mv)) {
                return Some(Outcome::Win(self.board.to_move.other()));
            }
        }
        None
    }
}

impl Rules for Position {
    const NAME: &'static str = "ataxx";

    fn start() -> Self {
        Position::start()
    }
    fn try_play(&mut self, mv: Move) -> Result<(), String> {
        Position::try_play(self, mv)
    }
    fn legal_responses(&self) -> Vec<Move> {
        self.source_target_pairs()
    }
    fn perft(&self, depth: u32) -> u64 {
        Position::perft(self, depth)
    }

    fn end_reason(&self) -> Option<String> {
        self.outcome()?;
        let b = &self.board;
        let name = |p: Player| if p == Player::First { "black" } else { "white" };
        if b.judge().is_none() {
            return Some(format!("every move of {} repeats earlier positions (CIRCULAR_MOVE)", name(b.to_move)));
        }
        if b.pieces(b.to_move).is_empty() {
            return Some(format!("{} has no pieces left", name(b.to_move)));
        }
        let can = [b.can_move(Player::First), b.can_move(Player::Second)];
        let [x, o] = b.final_counts(can);
        let why = match can {
            [true, false] => "white cannot move: black takes the empty squares".to_string(),
            [false, true] => "black cannot move: white takes the empty squares".to_string(),
            [false, false] if b.empty().is_empty() => "the board is full".to_string(),
            [false, false] => "neither side can move".to_string(),
            _ => format!("the {MOVE_CAP}-move cap"),
        };
        Some(format!("{why}; black {x}, white {o}"))
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        self.board.fmt(f)
    }
}

impl fmt::Display for Board {
    /// Black `X`, white `O`, empty `.`, with coordinates.
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        writeln!(f, "  0 1 2 3 4 5 6")?;
        for y in 0..7 {
            write!(f, "{y}")?;
            for x in 0..7 {
                let sq = Bitboard::square(x, y);
                let c = if self.pieces[0].contains(sq) {
                    'X'
                } else if self.pieces[1].contains(sq) {
                    'O'
                } else {
                    '.'
                };
                write!(f, " {c}")?;
            }
            writeln!(f)?;
        }
        let side = match self.to_move {
            Player::First => "black (X)",
            Player::Second => "white (O)",
        };
        write!(
            f,
            "move {}, {side} to move, black {} white {}",
            self.ply + 1,
            self.pieces[0].count(),
            self.pieces[1].count()
        )
    }
}
