-- The inbox's search reads the protocol id ("1532/2024") and the sender's number as stored columns:
-- a LIKE on a plain column keeps its trigram index behind the company wall (0045), where a LIKE on
-- an expression of functions that are not LEAKPROOF (the casts, ||, norm_text) may not use one.
ALTER TABLE "documents" ADD COLUMN "protocol_id" text GENERATED ALWAYS AS ("protocol_number"::text || '/' || "protocol_year"::text) STORED;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "protocol_id_sender_norm" text GENERATED ALWAYS AS (norm_text("protocol_id_sender")) STORED;--> statement-breakpoint
DROP INDEX IF EXISTS "documents_protocol_id_trgm";--> statement-breakpoint
DROP INDEX IF EXISTS "documents_protocol_id_sender_trgm";--> statement-breakpoint
CREATE INDEX "documents_protocol_id_trgm" ON "documents" USING gin ("protocol_id" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "documents_protocol_id_sender_norm_trgm" ON "documents" USING gin ("protocol_id_sender_norm" gin_trgm_ops);
