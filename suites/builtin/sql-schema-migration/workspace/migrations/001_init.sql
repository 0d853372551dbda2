CREATE TABLE users (id INTEGER PRIMARY KEY, email TEXT NOT NULL UNIQUE);
CREATE TABLE logins (id INTEGER PRIMARY KEY, user_id INTEGER NOT NULL REFERENCES users(id), at TEXT NOT NULL);
INSERT INTO users (id, email) VALUES (1, 'ada@example.org'), (2, 'grace@example.org'), (3, 'linus@example.org');
INSERT INTO logins (user_id, at) VALUES (1, '2024-03-01T10:00:00'), (1, '2024-03-05T08:30:00'),
    (2, '2024-02-28T23:59:59'), (1, '2024-01-15T12:00:00');
