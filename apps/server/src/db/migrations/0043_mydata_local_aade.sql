-- The demo company's myDATA goes to the local stand-in for AADE that a demo installation runs on
-- loopback (issue 29 item 18); no other company's ever does.
ALTER TABLE "mydata_settings" ADD COLUMN "local_aade" boolean DEFAULT false NOT NULL;
