from pipeline.ingest import read_orders

rows = read_orders("data/orders_raw.csv")
assert len(rows) == 7, len(rows)
assert rows[0]["customer"] == "Smith, Jane" and rows[0]["country"] == "DE", rows[0]
assert rows[2]["customer"] == "O'Neil, Pat" and rows[2]["amount"] == "20.00", rows[2]
assert list(rows[1]) == ["order_id", "customer", "country", "currency", "amount", "date", "status"]
print("ok")
