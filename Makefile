# Botzone bots for Ataxx, NoGo and Dots-and-Boxes. `make run` answers a fixture with each bot.
CARGO ?= cargo
BIN := target/release

.PHONY: build run test bench fmt lint dist clean

build:
	$(CARGO) build --release --workspace

run: build
	@for game in ataxx nogo dots; do \
		echo "== $$game: fixtures/$$game/midgame.json"; \
		$(BIN)/$$game --show < fixtures/$$game/midgame.json; echo; \
		$(BIN)/$$game < fixtures/$$game/midgame.json; \
	done

test: build
	$(CARGO) test --release --workspace
	fixtures/check.sh $(BIN)

bench: build
	$(CARGO) run --release -p arena --bin bench

fmt:
	$(CARGO) fmt --all

lint:
	$(CARGO) fmt --all -- --check
	$(CARGO) clippy --release --workspace --all-targets -- -D warnings

clean:
	$(CARGO) clean
