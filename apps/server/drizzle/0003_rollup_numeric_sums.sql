-- One rewrite of the table; through text so existing sums keep every digit (float8::numeric keeps only 15).
ALTER TABLE "telemetry_rollup"
	ALTER COLUMN "v1_sum" SET DATA TYPE numeric USING "v1_sum"::text::numeric,
	ALTER COLUMN "v2_sum" SET DATA TYPE numeric USING "v2_sum"::text::numeric,
	ALTER COLUMN "v3_sum" SET DATA TYPE numeric USING "v3_sum"::text::numeric;
