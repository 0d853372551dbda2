#!/usr/bin/env bash
set -euo pipefail
cat > queries/monthly_revenue.sql <<'EOF'
WITH RECURSIVE bounds AS (
    SELECT MIN(substr(created, 1, 7)) || '-01' AS first, MAX(substr(created, 1, 7)) || '-01' AS last FROM orders
), months(m) AS (
    SELECT first FROM bounds
    UNION ALL
    SELECT date(m, '+1 month') FROM months, bounds WHERE m < bounds.last
)
SELECT substr(m, 1, 7) AS month,
       COALESCE(SUM(CASE WHEN o.status = 'paid' THEN o.amount END), 0.0) AS paid_total,
       COUNT(CASE WHEN o.status = 'paid' THEN 1 END) AS paid_orders
FROM months
LEFT JOIN orders AS o ON substr(o.created, 1, 7) = substr(m, 1, 7)
GROUP BY m
ORDER BY m;
EOF
