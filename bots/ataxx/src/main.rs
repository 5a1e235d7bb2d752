//! The Ataxx bot: one Botzone turn on stdin, one move on stdout. See `ataxx --help`.

use botzone_games::ataxx::Position;
use botzone_games::{bot, engines};

fn main() {
    bot::main::<Position>(engines::ataxx::engines())
}
