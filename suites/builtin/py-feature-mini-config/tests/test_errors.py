from miniconf import ConfigError, parse

for text, lineno in [("[a]\nx = 1\njust words\n", 3), ("[]\n", 1), ("\n\n[unclosed\n", 3),
                     ("[a]\n = value\n", 2), ("# ok\n[a]\n: nothing\n", 3)]:
    try:
        parse(text)
    except ConfigError as e:
        assert e.lineno == lineno, f"{text!r}: lineno {e.lineno}, expected {lineno}"
        assert f"line {lineno}" in str(e), f"message {str(e)!r} should mention line {lineno}"
        assert isinstance(e, ValueError)
    else:
        raise AssertionError(f"parse({text!r}) should raise ConfigError")
print("ok")
