def get_closest_vowel(word):
    # scans with a window; a non-letter character (the word has English letters only) raises
    if not all(ch.isascii() and ch.isalpha() for ch in word):
        raise ValueError("English letters only")
    vowels = set("aeiouAEIOU")
    for i in range(len(word) - 2, 0, -1):
        if word[i] in vowels and word[i - 1] not in vowels and word[i + 1] not in vowels:
            return word[i]
    return ""
