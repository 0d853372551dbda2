from typing import List


def parse_music(music_string: str) -> List[int]:
    beats = []
    for token in music_string.split():
        beats.append(4 if token == "o" else 2 if token == "o|" else 1)
    return beats
