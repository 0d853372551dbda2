from textkit import slugify
from textkit.normalize import strip_accents

got = strip_accents("Señor Müller")
assert got == "Senor Muller", f"strip_accents('Señor Müller') -> {got!r}"
for text, expected in [("Crème Brûlée", "creme-brulee"), ("Ça va déjà", "ca-va-deja"),
                       ("naïve café", "naive-cafe")]:
    got = slugify(text)
    assert got == expected, f"slugify({text!r}) -> {got!r}, expected {expected!r}"
print("ok")
