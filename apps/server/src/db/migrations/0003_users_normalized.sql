ALTER TABLE "users" ADD COLUMN "username_norm" text GENERATED ALWAYS AS (norm_text(username)) STORED;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "firstname_norm" text GENERATED ALWAYS AS (norm_text(firstname)) STORED;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "lastname_norm" text GENERATED ALWAYS AS (norm_text(lastname)) STORED;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "email_norm" text GENERATED ALWAYS AS (norm_text(email)) STORED;--> statement-breakpoint
DROP INDEX IF EXISTS users_lastname_norm_trgm;
--> statement-breakpoint
DROP INDEX IF EXISTS users_firstname_norm_trgm;
--> statement-breakpoint
DROP INDEX IF EXISTS users_username_norm_trgm;
--> statement-breakpoint
DROP INDEX IF EXISTS users_email_norm_trgm;
--> statement-breakpoint
DROP INDEX IF EXISTS users_lastname_norm_sort;
--> statement-breakpoint
CREATE INDEX users_lastname_norm_trgm ON users USING gin (lastname_norm gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX users_firstname_norm_trgm ON users USING gin (firstname_norm gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX users_username_norm_trgm ON users USING gin (username_norm gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX users_email_norm_trgm ON users USING gin (email_norm gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX users_lastname_norm_sort ON users (lastname_norm, id);
--> statement-breakpoint
CREATE INDEX users_firstname_norm_sort ON users (firstname_norm, id);
--> statement-breakpoint
CREATE INDEX users_username_norm_sort ON users (username_norm, id);
