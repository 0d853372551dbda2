import os
import tempfile

from reconcile import reconcile

d = tempfile.mkdtemp()
bank, ledger = os.path.join(d, "b.csv"), os.path.join(d, "l.csv")
open(bank, "w").write("date,ref,amount\n28.02.2024,X,-0.10\n29.02.2024,Y,3\n01.01.2024,Z,1.00\n")
open(ledger, "w").write("booked,ref,type,amount\n2024-03-02,X,debit,0.1\n2024-03-04,Y,credit,3.00\n")
got = reconcile(bank, ledger)
assert got == {"missing_in_ledger": ["Z"], "missing_in_bank": [], "amount_mismatch": [], "date_mismatch": ["Y"]}, got
print("ok")
