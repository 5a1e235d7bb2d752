# Botzone bots for Ataxx, NoGo and Dots-and-Boxes. `make run` answers a fixture with each bot.
CARGO ?= cargo
BIN := target/release

.PHONY: build run test bench fmt lint dist clean

build:
	$(CARGO) build --release --workspace

# Each answer read back for a person (--explain): the board, the move, the engine's summary
# and the size of the `data` it carries; the bots' own output stays exactly Botzone's.
run: build
	@for game in ataxx nogo dots; do \
		echo "== $$game: fixtures/$$game/midgame.json"; \
		$(BIN)/$$game --explain < fixtures/$$game/midgame.json; echo; \
	done

# The tests build in their own profile (Cargo.toml, [profile.tests]: no LTO) and run to the
# end (--no-fail-fast), all of them, even after a failure. The browser test needs Chromium:
# it is an ignored test, run in a second step where Chromium is present, and named as
# skipped where it is not (a failure under ARENA_BROWSER_TESTS=required, as in CI). Then the
# fixtures go through the shipped bots of target/release.
TEST_PROFILE := tests
CHROMIUM ?= /usr/bin/chromium
CHROMEDRIVER ?= /usr/bin/chromedriver
# The cluster runner's tests need Ray (a real local cluster); like the browser test, they
# run where it is installed and are named as skipped where not (a failure under
# RAY_TESTS=required, as in CI).
RAY_PYTHON ?= target/ray-venv/bin/python
test: build
	$(CARGO) test --profile $(TEST_PROFILE) --workspace --no-fail-fast
	@if [ -x "$(CHROMIUM)" ] && [ -x "$(CHROMEDRIVER)" ]; then \
		CHROMIUM="$(CHROMIUM)" CHROMEDRIVER="$(CHROMEDRIVER)" \
			$(CARGO) test --profile $(TEST_PROFILE) -p arena --test integration browser:: -- --ignored; \
	elif [ "$$ARENA_BROWSER_TESTS" = required ]; then \
		echo "ARENA_BROWSER_TESTS=required, but $(CHROMIUM) or $(CHROMEDRIVER) is missing"; exit 1; \
	else \
		echo "SKIPPED 1 test: the browser test (bots/arena/tests/integration/browser.rs) needs" \
			"Chromium and ChromeDriver (Debian's chromium, chromium-driver)"; \
	fi
	@if [ -x "$(RAY_PYTHON)" ] && "$(RAY_PYTHON)" -c "import ray" 2>/dev/null; then \
		"$(RAY_PYTHON)" -m unittest bots/lab/cluster/test_ray_run.py; \
	elif [ "$$RAY_TESTS" = required ]; then \
		echo "RAY_TESTS=required, but $(RAY_PYTHON) has no Ray (bots/lab/cluster/requirements.txt)"; exit 1; \
	else \
		echo "SKIPPED 5 tests: the Ray cluster tests (bots/lab/cluster/test_ray_run.py) need Ray in" \
			"$(RAY_PYTHON) (python3 -m venv target/ray-venv; target/ray-venv/bin/pip install -r" \
			"bots/lab/cluster/requirements.txt)"; \
	fi
	fixtures/check.sh $(BIN)

bench: build
	$(CARGO) run --release -p lab --bin bench

fmt:
	$(CARGO) fmt --all

lint:
	$(CARGO) fmt --all -- --check
	@# rustfmt silently leaves alone what it cannot fit in max_width (long strings): catch it.
	@long=$$(git ls-files '*.rs' | xargs awk 'length > 120 { print FILENAME ":" FNR }'); \
	if [ -n "$$long" ]; then echo "lines over 120 characters (rustfmt skips them):"; echo "$$long"; exit 1; fi
	$(CARGO) clippy --release --workspace --all-targets -- -D warnings

clean:
	$(CARGO) clean

# Statically linked x86-64 bots for Botzone (no dynamic loader, no C library version needs),
# built to keep running when started with no arguments, as Botzone starts an upload.
TARGET := x86_64-unknown-linux-gnu
dist:
	RUSTFLAGS="-C target-feature=+crt-static" $(CARGO) build --release --target $(TARGET) -p ataxx -p nogo -p dots --features upload
	@mkdir -p dist
	@# Run as Botzone runs an upload: no arguments, an empty environment; it must answer
	@# and then ask to keep running (the upload build's default).
	@for bot in ataxx nogo dots; do \
		cp target/$(TARGET)/release/$$bot dist/$$bot; \
		if ldd dist/$$bot 2>&1 | grep -q "=>"; then echo "dist/$$bot is dynamically linked"; exit 1; fi; \
		env -i dist/$$bot < fixtures/$$bot/first_turn_first_player.json > dist/.answer || exit 1; \
		grep -q '"response"' dist/.answer && grep -qx '>>>BOTZONE_REQUEST_KEEP_RUNNING<<<' dist/.answer \
			|| { echo "dist/$$bot did not answer and keep running"; cat dist/.answer; exit 1; }; \
	done; rm -f dist/.answer
	@ls -l dist/ | awk 'NR>1 {print $$5, $$9}'
	@for bot in ataxx nogo dots; do printf '%s: ' $$bot; ldd dist/$$bot 2>&1 | head -n1; done
