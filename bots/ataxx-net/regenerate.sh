#!/usr/bin/env bash
# The Ataxx network from scratch, from the current engine: five generations of self-play
# (`ataxx-net datagen`) and training (`ataxx-net train`), every seed fixed, then a match of
# the last generation against the bot as built. Each generation's data is self-play of
# the generation before it (the first: the hand-made, Texel-fitted terms).
#
#   bots/ataxx-net/regenerate.sh all               every step not yet done, in order
#   bots/ataxx-net/regenerate.sh datagen G [K/N]   generation G's data (or shard K of N)
#   bots/ataxx-net/regenerate.sh train G           generation G's network from its data
#   bots/ataxx-net/regenerate.sh match G           generation G built in, against HEAD's bot
#
# Settings (environment): WORK (folder of the data and networks, default ../peers/regen),
# SCALE (fraction of each generation's games, default 1: about 22M positions in all; at
# the rates measured on 2026-11-29, 960 positions/s a core with the hand-made terms and
# 550 with the network at 3000 nodes, some 16 core-hours of datagen, an hour on 16 cores),
# THREADS (default: every core), ATAXX_NET (the tool, default target/release/ataxx-net).
#
# The same step writes the same file on any machine and with any THREADS (datagen and
# training are deterministic). To spread a generation over machines, run
# `datagen G K/N` for K = 0..N-1 anywhere, then concatenate the shard files in order into
# WORK/gG.bin (`cat gG.shard0of4.bin gG.shard1of4.bin ... > gG.bin`): byte for byte the
# file one machine makes. Every step resumes: datagen continues after the games a file
# holds, and a network already written is not trained again.
set -euo pipefail

WORK=${WORK:-../peers/regen}
SCALE=${SCALE:-1}
THREADS=${THREADS:-$(nproc)}
ATAXX_NET=${ATAXX_NET:-target/release/ataxx-net}

# Per generation: games at SCALE 1, nodes a move, random opening plies, datagen seed, the
# network that plays (none: the hand-made terms), then how it is trained: the data files,
# the network it starts from (none: random weights), epochs, learning rate.
games()  { case $1 in 1) echo 60000;; 2) echo 40000;; 3) echo 40000;; 4) echo 60000;; 5) echo 120000;; esac; }
nodes()  { case $1 in 1|2) echo 3000;; 3) echo 4000;; *) echo 5000;; esac; }
plies()  { case $1 in 1|2) echo 4,10;; 3) echo 6,14;; *) echo 2,17;; esac; }
data()   { case $1 in 1) echo g1;; 2) echo "g1 g2";; 3) echo g3;; 4) echo "g3 g4";; 5) echo "g4 g5";; esac; }
init()   { case $1 in 1|2) echo none;; *) echo "gen$(($1 - 1))";; esac; }
epochs() { case $1 in 1|2) echo 30;; 3) echo 20;; *) echo 12;; esac; }
lr()     { case $1 in 1|2) echo 0.001;; *) echo 0.0005;; esac; }

check_generation() {
    [[ $1 =~ ^[1-5]$ ]] || { echo "regenerate.sh: generation $1: there are generations 1 to 5" >&2; exit 2; }
}

scaled_games() {
    awk -v g="$(games "$1")" -v s="$SCALE" 'BEGIN { n = int(g * s); print (n < 1 ? 1 : n) }'
}

datagen() {
    local g=$1 shard=${2:-} out="$WORK/g$1.bin" player=()
    if [[ $g == 1 ]]; then
        player=(--without network)
    else
        [[ -f $WORK/gen$((g - 1)).net ]] || { echo "regenerate.sh: gen$((g - 1)).net first (train $((g - 1)))" >&2; exit 2; }
        player=(--net "$WORK/gen$((g - 1)).net")
    fi
    local sharding=()
    if [[ -n $shard ]]; then
        out="$WORK/g$g.shard${shard%/*}of${shard#*/}.bin"
        sharding=(--shard "$shard")
    fi
    mkdir -p "$WORK"
    "$ATAXX_NET" datagen --out "$out" --games "$(scaled_games "$g")" "${sharding[@]}" --nodes "$(nodes "$g")" \
        --random-plies "$(plies "$g")" --seed $((100 + g)) --threads "$THREADS" "${player[@]}"
}

train() {
    local g=$1 net="$WORK/gen$1.net" files=() start=()
    if [[ -f $net ]]; then
        echo "$net: already trained"
        return
    fi
    for d in $(data "$g"); do files+=("$WORK/$d.bin"); done
    [[ $(init "$g") == none ]] || start=(--init "$WORK/$(init "$g").net")
    "$ATAXX_NET" train --data "${files[@]}" --out "$net.part" --epochs "$(epochs "$g")" --lr "$(lr "$g")" \
        --result-weight 0.5 --seed 1 --threads "$THREADS" "${start[@]}"
    mv "$net.part" "$net"
}

# Builds the bot with generation G's network in a worktree of HEAD (this checkout is left
# as it is) and plays it against HEAD's bot at 20,000 nodes a move, 200 games.
match() {
    local g=$1 tree="$WORK/tree"
    [[ -f $WORK/gen$g.net ]] || { echo "regenerate.sh: train $g first" >&2; exit 2; }
    rm -rf "$tree"
    git worktree prune
    git worktree add --detach "$tree" HEAD >/dev/null
    cp "$WORK/gen$g.net" "$tree/shared/src/ataxx/ataxx.net"
    (cd "$tree" && cargo build --release -q -p ataxx)
    cp "$tree/target/release/ataxx" "$WORK/ataxx-gen$g"
    git worktree remove --force "$tree"
    cargo build --release -q -p ataxx -p arena
    target/release/arena ataxx --a "$WORK/ataxx-gen$g --nodes 20000" --b "target/release/ataxx --nodes 20000" \
        --games 200 --openings 4 --time-ms 1000 --jobs "$THREADS" --seed 9001 --log "$WORK/match-gen$g.jsonl"
}

case ${1:-} in
    datagen) check_generation "${2:-}"; datagen "$2" "${3:-}" ;;
    train) check_generation "${2:-}"; train "$2" ;;
    match) check_generation "${2:-}"; match "$2" ;;
    all)
        for g in 1 2 3 4 5; do
            datagen "$g"
            train "$g"
        done
        match 5
        ;;
    *) sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
esac
