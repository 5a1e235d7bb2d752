//! NoGo rules as Botzone's judge applies them.

use super::bitboard::{Bitboard, Point};
use crate::game::{Game, Outcome, Player, Rules};
use std::fmt;

/// The centre point, which a course rule forbids as black's first move.
pub const CENTRE: Point = Bitboard::point(4, 4);

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Position {
    stones: [Bitboard; 2],
    to_move: Player,
    ply: u16,
}

impl Default for Position {
    fn default() -> Self {
        Self::start()
    }
}

impl Position {
    /// The position after `moves`, given as (x, y) points from the start (tests' boards).
    #[cfg(test)]
    pub(crate) fn after(moves: &[(u8, u8)]) -> Position {
        let mut p = Position::start();
        for &(x, y) in moves {
            p.play(Bitboard::point(x, y));
        }
        p
    }

    pub fn start() -> Position {
        Position { stones: [Bitboard::EMPTY; 2], to_move: Player::First, ply: 0 }
    }

    pub fn stones(&self, player: Player) -> Bitboard {
        self.stones[player.index()]
    }
    pub fn empty(&self) -> Bitboard {
        self.stones[0].or(self.stones[1]).not()
    }
    pub fn ply(&self) -> u16 {
        self.ply
    }

    /// Every point where `player` may play now.
    ///
    /// A point is legal when it is empty, the new stone's group keeps a liberty (the point
    /// touches an empty point, or an own group with a second liberty) and no neighbouring
    /// enemy group loses its last liberty (the point is not an enemy group's only liberty).
    pub fn legal_points(&self, player: Player) -> Bitboard {
        self.legal_for_both()[player.index()]
    }

    /// `legal_points` of both sides, from one pass over the groups.
    pub fn legal_for_both(&self) -> [Bitboard; 2] {
        let empty = self.empty();
        let classes = [self.group_liberty_classes(Player::First), self.group_liberty_classes(Player::Second)];
        let legal = |me: usize| {
            let own = &classes[me];
            let enemy = &classes[1 - me];
            empty.and(empty.neighbours().or(own.safe_stones.neighbours())).minus(enemy.single_liberties)
        };
        [legal(0), legal(1)]
    }

    /// Places a stone for the side to move without any check (search models use it
    /// after their own legality test).
    pub fn place_unchecked(&mut self, p: Point) {
        self.place(p);
    }

    fn group_liberty_classes(&self, player: Player) -> LibertyClasses {
        let stones = self.stones(player);
        let empty = self.empty();
        let mut classes = LibertyClasses { safe_stones: Bitboard::EMPTY, single_liberties: Bitboard::EMPTY };
        let mut rest = stones;
        while !rest.is_empty() {
            let group = Bitboard::flood(Bitboard::from_point(rest.first()), stones);
            rest = rest.minus(group);
            let liberties = group.neighbours().and(empty);
            if liberties.count() >= 2 {
                classes.safe_stones = classes.safe_stones.or(group);
            } else {
                classes.single_liberties = classes.single_liberties.or(liberties);
            }
        }
        classes
    }

    pub fn check(&self, p: Point) -> Result<(), String> {
        if p >= 81 {
            return Err("point off the board".into());
        }
        let (x, y) = Bitboard::coords(p);
        if !self.empty().contains(p) {
            return Err(format!("point ({x},{y}) is occupied"));
        }
        if self.outcome().is_some() {
            return Err("the game is already over".into());
        }
        if !self.legal_points(self.to_move).contains(p) {
            let mut after = self.stones;
            after[self.to_move.index()] = after[self.to_move.index()].with(p);
            let empty = after[0].or(after[1]).not();
            let own = Bitboard::flood(Bitboard::from_point(p), after[self.to_move.index()]);
            return Err(if own.neighbours().and(empty).is_empty() {
                format!("({x},{y}) is suicide: the new stone's group has no liberty")
            } else {
                format!("({x},{y}) captures: a neighbouring enemy group loses its last liberty")
            });
        }
        Ok(())
    }

    pub fn try_play(&mut self, p: Point) -> Result<(), String> {
        self.check(p)?;
        self.place(p);
        Ok(())
    }

    fn place(&mut self, p: Point) {
        let me = self.to_move.index();
        self.stones[me] = self.stones[me].with(p);
        self.to_move = self.to_move.other();
        self.ply += 1;
    }
}

/// A side's groups sorted by how many liberties they have.
struct LibertyClasses {
    /// Stones of groups with two or more liberties.
    safe_stones: Bitboard,
    /// The liberties of groups with exactly one liberty.
    single_liberties: Bitboard,
}

impl Game for Position {
    const MOVE_SPACE: usize = 81;

    fn move_index(mv: Point) -> usize {
        usize::from(mv)
    }

    type Move = Point;

    fn to_move(&self) -> Player {
        self.to_move
    }

    fn legal_moves(&self, moves: &mut Vec<Point>) {
        moves.clear();
        moves.extend(self.legal_points(self.to_move).iter());
    }

    fn play(&mut self, p: Point) {
        debug_assert_eq!(self.check(p), Ok(()));
        self.place(p);
    }

    /// The side to move without a legal move has lost.
    fn outcome(&self) -> Option<Outcome> {
        if self.legal_points(self.to_move).is_empty() {
            Some(Outcome::Win(self.to_move.other()))
        } else {
            None
        }
    }
}

impl Rules for Position {
    const NAME: &'static str = "nogo";

    fn start() -> Self {
        Position::start()
    }
    fn try_play(&mut self, p: Point) -> Result<(), String> {
        Position::try_play(self, p)
    }

    fn end_reason(&self) -> Option<String> {
        self.outcome()?;
        let side = if self.to_move == Player::First { "black" } else { "white" };
        Some(format!("{side} has no legal point (every empty point would capture or be suicide)"))
    }
}

impl fmt::Display for Position {
    /// Black `X`, white `O`, empty `.`.
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        writeln!(f, "  0 1 2 3 4 5 6 7 8")?;
        for y in 0..9 {
            write!(f, "{y}")?;
            for x in 0..9 {
                let p = Bitboard::point(x, y);
                let c = if self.stones[0].contains(p) {
                    'X'
                } else if self.stones[1].contains(p) {
                    'O'
                } else {
                    '.'
                };
                write!(f, " {c}")?;
            }
            writeln!(f)?;
        }
        let side = if self.to_move == Player::First { "black (X)" } else { "white (O)" };
        write!(f, "move {}, {side} to move", self.ply + 1)
    }
}
