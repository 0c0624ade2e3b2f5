CREATE TABLE "jobs" (
	"id" serial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"key" text,
	"company_id" integer,
	"owner_id" integer,
	"state" text DEFAULT 'queued' NOT NULL,
	"payload" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"max_attempts" integer DEFAULT 3 NOT NULL,
	"run_after" timestamp with time zone DEFAULT now() NOT NULL,
	"locked_by" text,
	"locked_until" timestamp with time zone,
	"progress_done" integer DEFAULT 0 NOT NULL,
	"progress_total" integer,
	"progress_message" text,
	"result" jsonb,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE UNIQUE INDEX "jobs_active_key" ON "jobs" USING btree ("key") WHERE key IS NOT NULL AND state IN ('queued', 'running');--> statement-breakpoint
CREATE INDEX "jobs_claimable" ON "jobs" USING btree ("run_after") WHERE state IN ('queued', 'running');--> statement-breakpoint
CREATE INDEX "jobs_owner" ON "jobs" USING btree ("owner_id","created_at");