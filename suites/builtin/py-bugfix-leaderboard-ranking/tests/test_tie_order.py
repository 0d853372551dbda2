from scores.parse import Entry
from scores.ranking import rank

entries = [Entry("bob", 40), Entry("dave", 30), Entry("alice", 40), Entry("carol", 50), Entry("ann", 30)]
before = list(entries)
names = [e.name for _, e in rank(entries)]
assert names == ["carol", "alice", "bob", "ann", "dave"], f"order {names}"
assert entries == before, "rank() must not modify its input"
print("ok")
