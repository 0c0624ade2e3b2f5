-- The quick search of the documents lists looks in five fields; PostgreSQL can answer an OR of them
-- from indexes (a BitmapOr) only when every one has a trigram index. The protocol number as people
-- write it (N/YYYY) and the sender's protocol number had none, so a search for "1532/2024" read every
-- document of the company (680 ms on 1,000,000 documents).
CREATE INDEX IF NOT EXISTS "documents_protocol_id_trgm" ON "documents" USING gin ((("protocol_number"::text || '/' || "protocol_year"::text)) gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "documents_protocol_id_sender_trgm" ON "documents" USING gin (norm_text("protocol_id_sender") gin_trgm_ops);
