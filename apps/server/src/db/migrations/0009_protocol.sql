CREATE TABLE "notifications" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer,
	"user_id" integer NOT NULL,
	"sender_id" integer,
	"message_key" text NOT NULL,
	"params" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"entity" text,
	"entity_id" integer,
	"comments" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"read_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "case_documents" (
	"case_id" integer NOT NULL,
	"document_id" integer NOT NULL,
	"added_at" timestamp with time zone DEFAULT now() NOT NULL,
	"added_by" text,
	CONSTRAINT "case_documents_case_id_document_id_pk" PRIMARY KEY("case_id","document_id")
);
--> statement-breakpoint
CREATE TABLE "case_types" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"descr" text NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"createuser" text,
	"createdate" timestamp with time zone DEFAULT now(),
	"updateuser" text,
	"updatedate" timestamp with time zone,
	"defuser" text,
	"defdate" timestamp with time zone,
	"changeuser" text,
	"changedate" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "cases" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"case_type_id" integer,
	"agencies" text,
	"comments" text,
	"closed" boolean DEFAULT false NOT NULL,
	"code_norm" text GENERATED ALWAYS AS (norm_text(code)) STORED,
	"name_norm" text GENERATED ALWAYS AS (norm_text(name)) STORED,
	"createuser" text,
	"createdate" timestamp with time zone DEFAULT now(),
	"updateuser" text,
	"updatedate" timestamp with time zone,
	"defuser" text,
	"defdate" timestamp with time zone,
	"changeuser" text,
	"changedate" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "document_assignments" (
	"id" serial PRIMARY KEY NOT NULL,
	"document_id" integer NOT NULL,
	"kind" smallint NOT NULL,
	"user_id" integer,
	"group_id" integer,
	"by_user_id" integer,
	"comments" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ended_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "document_attachments" (
	"id" serial PRIMARY KEY NOT NULL,
	"document_id" integer NOT NULL,
	"file_name" text NOT NULL,
	"content_type" text NOT NULL,
	"size" bigint NOT NULL,
	"sha256" text NOT NULL,
	"storage_key" text NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"replaces_id" integer,
	"deleted_at" timestamp with time zone,
	"deleted_by" text,
	"createuser" text,
	"createdate" timestamp with time zone DEFAULT now(),
	"updateuser" text,
	"updatedate" timestamp with time zone,
	"defuser" text,
	"defdate" timestamp with time zone,
	"changeuser" text,
	"changedate" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "document_signatures" (
	"id" serial PRIMARY KEY NOT NULL,
	"document_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"signed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"content_hash" text NOT NULL,
	"comments" text
);
--> statement-breakpoint
CREATE TABLE "document_traders" (
	"document_id" integer NOT NULL,
	"role" smallint NOT NULL,
	"position" smallint NOT NULL,
	"trader_id" integer NOT NULL,
	CONSTRAINT "document_traders_document_id_role_position_pk" PRIMARY KEY("document_id","role","position")
);
--> statement-breakpoint
CREATE TABLE "document_types" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"seqnr" integer NOT NULL,
	"descr" text NOT NULL,
	"autonr" boolean DEFAULT true NOT NULL,
	"printype" smallint DEFAULT 0 NOT NULL,
	"copies" smallint DEFAULT 1 NOT NULL,
	"checkdates" boolean DEFAULT true NOT NULL,
	"relseqid" integer,
	"active" boolean DEFAULT true NOT NULL,
	"createuser" text,
	"createdate" timestamp with time zone DEFAULT now(),
	"updateuser" text,
	"updatedate" timestamp with time zone,
	"defuser" text,
	"defdate" timestamp with time zone,
	"changeuser" text,
	"changedate" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "documents" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"kind" smallint NOT NULL,
	"name" text,
	"subject" text NOT NULL,
	"subject_category_id" integer,
	"state" smallint DEFAULT 0 NOT NULL,
	"document_type_id" integer,
	"protocol_book_id" integer,
	"protocol_number" integer,
	"protocol_year" integer,
	"protocol_date" timestamp with time zone,
	"protocol_id_sender" text,
	"protocol_send_date" date,
	"correspondents" text,
	"create_user_id" integer,
	"charged_user_id" integer,
	"charged_group_id" integer,
	"folder" text,
	"is_outbox" boolean DEFAULT false NOT NULL,
	"clone_document_id" integer,
	"reply_to_id" integer,
	"send_status" smallint DEFAULT 0 NOT NULL,
	"sent_at" timestamp with time zone,
	"publications" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"comments" text,
	"name_norm" text GENERATED ALWAYS AS (norm_text(name)) STORED,
	"subject_norm" text GENERATED ALWAYS AS (norm_text(subject)) STORED,
	"correspondents_norm" text GENERATED ALWAYS AS (norm_text(correspondents)) STORED,
	"createuser" text,
	"createdate" timestamp with time zone DEFAULT now(),
	"updateuser" text,
	"updatedate" timestamp with time zone,
	"defuser" text,
	"defdate" timestamp with time zone,
	"changeuser" text,
	"changedate" timestamp with time zone,
	CONSTRAINT "documents_kind_check" CHECK ("documents"."kind" in (0, 1)),
	CONSTRAINT "documents_registration_whole" CHECK (num_nulls("documents"."protocol_book_id", "documents"."protocol_number", "documents"."protocol_year", "documents"."protocol_date") in (0, 4))
);
--> statement-breakpoint
CREATE TABLE "protocol_counters" (
	"book_id" integer NOT NULL,
	"year" integer NOT NULL,
	"last" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "protocol_counters_book_id_year_pk" PRIMARY KEY("book_id","year")
);
--> statement-breakpoint
CREATE TABLE "subject_categories" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"code" text,
	"descr" text NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"createuser" text,
	"createdate" timestamp with time zone DEFAULT now(),
	"updateuser" text,
	"updatedate" timestamp with time zone,
	"defuser" text,
	"defdate" timestamp with time zone,
	"changeuser" text,
	"changedate" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_sender_id_users_id_fk" FOREIGN KEY ("sender_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "case_documents" ADD CONSTRAINT "case_documents_case_id_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."cases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "case_documents" ADD CONSTRAINT "case_documents_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "case_types" ADD CONSTRAINT "case_types_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cases" ADD CONSTRAINT "cases_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cases" ADD CONSTRAINT "cases_case_type_id_case_types_id_fk" FOREIGN KEY ("case_type_id") REFERENCES "public"."case_types"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_assignments" ADD CONSTRAINT "document_assignments_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_assignments" ADD CONSTRAINT "document_assignments_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_assignments" ADD CONSTRAINT "document_assignments_group_id_user_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."user_groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_assignments" ADD CONSTRAINT "document_assignments_by_user_id_users_id_fk" FOREIGN KEY ("by_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_attachments" ADD CONSTRAINT "document_attachments_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_attachments" ADD CONSTRAINT "document_attachments_replaces_id_document_attachments_id_fk" FOREIGN KEY ("replaces_id") REFERENCES "public"."document_attachments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_signatures" ADD CONSTRAINT "document_signatures_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_signatures" ADD CONSTRAINT "document_signatures_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_traders" ADD CONSTRAINT "document_traders_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_traders" ADD CONSTRAINT "document_traders_trader_id_traders_id_fk" FOREIGN KEY ("trader_id") REFERENCES "public"."traders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_types" ADD CONSTRAINT "document_types_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_types" ADD CONSTRAINT "document_types_relseqid_document_types_id_fk" FOREIGN KEY ("relseqid") REFERENCES "public"."document_types"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_subject_category_id_subject_categories_id_fk" FOREIGN KEY ("subject_category_id") REFERENCES "public"."subject_categories"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_document_type_id_document_types_id_fk" FOREIGN KEY ("document_type_id") REFERENCES "public"."document_types"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_protocol_book_id_protocol_books_id_fk" FOREIGN KEY ("protocol_book_id") REFERENCES "public"."protocol_books"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_create_user_id_users_id_fk" FOREIGN KEY ("create_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_charged_user_id_users_id_fk" FOREIGN KEY ("charged_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_charged_group_id_user_groups_id_fk" FOREIGN KEY ("charged_group_id") REFERENCES "public"."user_groups"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_clone_document_id_documents_id_fk" FOREIGN KEY ("clone_document_id") REFERENCES "public"."documents"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_reply_to_id_documents_id_fk" FOREIGN KEY ("reply_to_id") REFERENCES "public"."documents"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "protocol_counters" ADD CONSTRAINT "protocol_counters_book_id_protocol_books_id_fk" FOREIGN KEY ("book_id") REFERENCES "public"."protocol_books"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subject_categories" ADD CONSTRAINT "subject_categories_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "notifications_user_idx" ON "notifications" USING btree ("user_id","read_at","created_at");--> statement-breakpoint
CREATE INDEX "case_documents_document_idx" ON "case_documents" USING btree ("document_id");--> statement-breakpoint
CREATE INDEX "case_types_company_idx" ON "case_types" USING btree ("company_id");--> statement-breakpoint
CREATE UNIQUE INDEX "cases_company_code_idx" ON "cases" USING btree ("company_id","code");--> statement-breakpoint
CREATE INDEX "cases_code_norm_trgm" ON "cases" USING gin ("code_norm" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "cases_name_norm_trgm" ON "cases" USING gin ("name_norm" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "document_assignments_document_idx" ON "document_assignments" USING btree ("document_id");--> statement-breakpoint
CREATE INDEX "document_assignments_user_idx" ON "document_assignments" USING btree ("user_id","document_id");--> statement-breakpoint
CREATE INDEX "document_assignments_group_idx" ON "document_assignments" USING btree ("group_id","document_id");--> statement-breakpoint
CREATE INDEX "document_attachments_document_idx" ON "document_attachments" USING btree ("document_id");--> statement-breakpoint
CREATE INDEX "document_signatures_document_idx" ON "document_signatures" USING btree ("document_id");--> statement-breakpoint
CREATE INDEX "document_traders_trader_idx" ON "document_traders" USING btree ("trader_id");--> statement-breakpoint
CREATE INDEX "document_types_company_idx" ON "document_types" USING btree ("company_id","seqnr");--> statement-breakpoint
CREATE UNIQUE INDEX "documents_book_number_idx" ON "documents" USING btree ("protocol_book_id","protocol_year","protocol_number");--> statement-breakpoint
CREATE INDEX "documents_list_idx" ON "documents" USING btree ("company_id","kind","state","id");--> statement-breakpoint
CREATE INDEX "documents_protocol_date_idx" ON "documents" USING btree ("company_id","protocol_date");--> statement-breakpoint
CREATE INDEX "documents_charged_user_idx" ON "documents" USING btree ("charged_user_id");--> statement-breakpoint
CREATE INDEX "documents_charged_group_idx" ON "documents" USING btree ("charged_group_id");--> statement-breakpoint
CREATE INDEX "documents_create_user_idx" ON "documents" USING btree ("create_user_id");--> statement-breakpoint
CREATE INDEX "documents_reply_to_idx" ON "documents" USING btree ("reply_to_id");--> statement-breakpoint
CREATE INDEX "documents_subject_norm_trgm" ON "documents" USING gin ("subject_norm" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "documents_name_norm_trgm" ON "documents" USING gin ("name_norm" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "documents_correspondents_norm_trgm" ON "documents" USING gin ("correspondents_norm" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "subject_categories_company_idx" ON "subject_categories" USING btree ("company_id");