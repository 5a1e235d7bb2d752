//! The NoGo bot: one Botzone turn on stdin, one move on stdout. See `nogo --help`.

use botzone_games::nogo::Position;
use botzone_games::{bot, engines};

fn main() {
    bot::main::<Position>(engines::nogo::engines())
}
