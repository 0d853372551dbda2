from pipeline.clean import clean, iso_date

assert iso_date("2024-03-05") == "2024-03-05"
assert iso_date("05/03/2024") == "2024-03-05"
assert iso_date("2024/03/28") == "2024-03-28"
assert iso_date("30/04/2024") == "2024-04-30"
rows = clean([{"date": "01/04/2024", "status": "refunded", "x": " a "}, {"date": "2024/01/02", "status": "paid", "x": " b "}])
assert rows == [{"date": "2024-01-02", "status": "paid", "x": "b"}], rows
print("ok")
