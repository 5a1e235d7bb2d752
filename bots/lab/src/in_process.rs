//! Games played in-process between two engines, for the experiments: no processes, no
//! protocol, no clock beyond what each move's budget says.

use botzone_games::game::{Game, Player};
use botzone_games::search::{Budget, Engine};

/// Plays `start` out: the engine of the side to move (`players[0]` moves first) searches
/// with the budget `budget` gives for that side, asked afresh each move (so a time budget
/// starts when the move does). Returns the first player's reward (1, 0.5 or 0).
pub fn play_out<G: Game>(start: &G, players: &mut [Box<dyn Engine<G>>; 2], budget: impl Fn(Player) -> Budget) -> f64 {
    let mut g = start.clone();
    let mut moves = Vec::new();
    loop {
        g.legal_moves(&mut moves);
        if moves.is_empty() {
            return g.outcome().expect("no move means the game is over").reward(Player::First);
        }
        let side = g.to_move();
        let mv = players[side.index()].search(&g, &moves, &budget(side)).best;
        g.play(mv);
    }
}
