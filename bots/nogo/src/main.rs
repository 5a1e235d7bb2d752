//! The NoGo bot: one Botzone turn on stdin, one move on stdout. See `nogo --help`.

use botzone_games::bot;
use botzone_games::nogo::Position;

fn main() {
    bot::main::<Position>(bot::generic_engines())
}
