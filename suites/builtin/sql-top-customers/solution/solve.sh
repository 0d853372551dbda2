#!/usr/bin/env bash
set -euo pipefail
mkdir -p queries
cat > queries/top_customers.sql <<'EOF'
SELECT c.name, SUM(o.amount) AS total
FROM customers AS c
JOIN orders AS o ON o.customer_id = c.id
WHERE o.status = 'paid'
GROUP BY c.id, c.name
ORDER BY total DESC, c.name ASC
LIMIT 3;
EOF
