# Session 9: why no q-gram filter with q >= 3 (quotes 3, 11) or q >= 5 (quote 7) can be sound at the
# bench quotes' best ratio T. W = b with one letter ("x") inserted after every q-th character of b has
# no intact q-gram of b (disjoint or overlapping: every q consecutive characters of b are cut), yet
# python3's difflib (the oracle; autojunk off) scores it >= T: a sound filter must keep such a
# window, so it may demand no intact q-gram. Quotes: the bench's target quotes 3, 7, 11 (keys as
# `words` gives them), T their best ratio over all books.   python3 bench/scratch/s9-gram-vacuity.py
import difflib

QUOTES = {
    3: ("who indeed is abimelech they should serve", 0.8461538461538461),
    7: ("many of indeed the children of israel shall from turn to lord their god and he shall go before him", 0.9109947643979057),
    11: ("go and get in unto king david lord say indeed unto him", 0.8380952380952381),
}
for i, (b, T) in QUOTES.items():
    lb = len(b)
    D = int(2 * lb * (1 - T) / T + 1e-6)
    out = []
    for q in range(2, 7):
        W = "".join(b[j] + ("x" if (j + 1) % q == 0 and j + 1 < lb else "") for j in range(lb))
        r = difflib.SequenceMatcher(None, W, b, autojunk=False).ratio()
        out.append(f"q={q}: +{len(W) - lb} chars, ratio {r:.3f} {'>=' if r >= T else '<'} T")
    print(f"quote {i} (lb={lb}, T={T:.3f}, D={D}): " + "; ".join(out))
