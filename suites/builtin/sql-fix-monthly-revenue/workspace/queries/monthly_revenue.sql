SELECT substr(created, 1, 7) AS month, SUM(amount) AS paid_total, COUNT(*) AS paid_orders
FROM orders
GROUP BY month
ORDER BY month;
