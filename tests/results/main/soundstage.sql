BEGIN TRANSACTION;
CREATE TABLE alembic_version (
	version_num VARCHAR(32) NOT NULL, 
	CONSTRAINT alembic_version_pkc PRIMARY KEY (version_num)
);
INSERT INTO "alembic_version" VALUES('0004');
CREATE TABLE "checks" (
	run_id VARCHAR(200) NOT NULL, 
	scene VARCHAR(200) NOT NULL, 
	trial INTEGER NOT NULL, 
	position INTEGER NOT NULL, 
	check_id TEXT NOT NULL, 
	kind TEXT NOT NULL, 
	required BOOLEAN NOT NULL, 
	passed BOOLEAN, 
	invalid BOOLEAN NOT NULL, 
	score FLOAT, 
	expected TEXT NOT NULL, 
	actual TEXT NOT NULL, 
	explanation TEXT NOT NULL, 
	evidence JSON NOT NULL, 
	source VARCHAR(20) NOT NULL, 
	evaluation INTEGER NOT NULL, 
	CONSTRAINT checks_pkey PRIMARY KEY (run_id, evaluation, scene, trial, position), 
	CONSTRAINT checks_evaluation FOREIGN KEY(run_id, evaluation) REFERENCES evaluations (run_id, number) ON DELETE CASCADE, 
	CONSTRAINT checks_trial FOREIGN KEY(run_id, scene, trial) REFERENCES trials (run_id, scene, number) ON DELETE CASCADE
);
INSERT INTO "checks" VALUES('20261206-221249','hello',1,0,'said_hello','state:slack.message',1,1,0,1.0,'at least one Slack message in CB9CLRTUUPL ($general) from U20SHK1YS77 ($bot) whose text contains "hello"','1 message matched: message 1772460005.000100 ("hello from the agent")','Passed: expected at least one Slack message in CB9CLRTUUPL ($general) from U20SHK1YS77 ($bot) whose text contains "hello", and 1 message matched: message 1772460005.000100 ("hello from the agent").','[3, 4]','scene',0);
INSERT INTO "checks" VALUES('20261206-221249','hello',1,1,'posted','trace',1,1,0,1.0,'at least one call matching POST /api/chat.postMessage','1 call matched (seq 3)','Passed: expected at least one call matching POST /api/chat.postMessage, and 1 call matched (seq 3).','[3]','scene',0);
INSERT INTO "checks" VALUES('20261206-221249','hello',2,0,'said_hello','state:slack.message',1,1,0,1.0,'at least one Slack message in CB9CLRTUUPL ($general) from U20SHK1YS77 ($bot) whose text contains "hello"','1 message matched: message 1772460005.000100 ("hello from the agent")','Passed: expected at least one Slack message in CB9CLRTUUPL ($general) from U20SHK1YS77 ($bot) whose text contains "hello", and 1 message matched: message 1772460005.000100 ("hello from the agent").','[3, 4]','scene',0);
INSERT INTO "checks" VALUES('20261206-221249','hello',2,1,'posted','trace',1,1,0,1.0,'at least one call matching POST /api/chat.postMessage','1 call matched (seq 3)','Passed: expected at least one call matching POST /api/chat.postMessage, and 1 call matched (seq 3).','[3]','scene',0);
INSERT INTO "checks" VALUES('20261206-221254','hello',1,0,'said_hello','state:slack.message',1,0,0,0.0,'at least one Slack message in CB9CLRTUUPL ($general) from U20SHK1YS77 ($bot) whose text contains "hello"','there are no Slack messages','Failed: expected at least one Slack message in CB9CLRTUUPL ($general) from U20SHK1YS77 ($bot) whose text contains "hello", but there are no Slack messages.','[]','scene',0);
INSERT INTO "checks" VALUES('20261206-221254','hello',1,1,'posted','trace',1,0,0,0.0,'at least one call matching POST /api/chat.postMessage','the agent made no calls','Failed: expected at least one call matching POST /api/chat.postMessage, but the agent made no calls.','[]','scene',0);
INSERT INTO "checks" VALUES('20261206-221254','hello',2,0,'said_hello','state:slack.message',1,0,0,0.0,'at least one Slack message in CB9CLRTUUPL ($general) from U20SHK1YS77 ($bot) whose text contains "hello"','there are no Slack messages','Failed: expected at least one Slack message in CB9CLRTUUPL ($general) from U20SHK1YS77 ($bot) whose text contains "hello", but there are no Slack messages.','[]','scene',0);
INSERT INTO "checks" VALUES('20261206-221254','hello',2,1,'posted','trace',1,0,0,0.0,'at least one call matching POST /api/chat.postMessage','the agent made no calls','Failed: expected at least one call matching POST /api/chat.postMessage, but the agent made no calls.','[]','scene',0);
CREATE TABLE evaluations (
	run_id VARCHAR(200) NOT NULL, 
	number INTEGER NOT NULL, 
	checks_from VARCHAR(20) NOT NULL, 
	checks_file TEXT, 
	created_at DATETIME NOT NULL, 
	PRIMARY KEY (run_id, number), 
	CONSTRAINT evaluations_run FOREIGN KEY(run_id) REFERENCES runs (id) ON DELETE CASCADE
);
INSERT INTO "evaluations" VALUES('20261206-221249',0,'run',NULL,'2026-12-06 22:12:49.593298');
INSERT INTO "evaluations" VALUES('20261206-221254',0,'run',NULL,'2026-12-06 22:12:54.488685');
CREATE TABLE figures (
	run_id VARCHAR(200) NOT NULL, 
	evaluation INTEGER NOT NULL, 
	scene VARCHAR(200) NOT NULL, 
	status VARCHAR(20) NOT NULL, 
	trials INTEGER NOT NULL, 
	passed INTEGER, 
	pass_at_1 FLOAT, 
	pass_at_k FLOAT, 
	pass_hat_k FLOAT, 
	pass_at JSON, 
	pass_hat JSON, 
	checks JSON NOT NULL, invalid INTEGER DEFAULT '0' NOT NULL, 
	PRIMARY KEY (run_id, evaluation, scene), 
	CONSTRAINT figures_evaluation FOREIGN KEY(run_id, evaluation) REFERENCES evaluations (run_id, number) ON DELETE CASCADE
);
INSERT INTO "figures" VALUES('20261206-221249',0,'hello','graded',2,2,1.0,1.0,1.0,'{"1": 1.0, "2": 1.0}','{"1": 1.0, "2": 1.0}','{"said_hello": {"required": true, "passed": 2, "trials": 2, "pass_rate": 1.0}, "posted": {"required": true, "passed": 2, "trials": 2, "pass_rate": 1.0}}',0);
INSERT INTO "figures" VALUES('20261206-221254',0,'hello','graded',2,0,0.0,0.0,0.0,'{"1": 0.0, "2": 0.0}','{"1": 0.0, "2": 0.0}','{"said_hello": {"required": true, "passed": 0, "trials": 2, "pass_rate": 0.0}, "posted": {"required": true, "passed": 0, "trials": 2, "pass_rate": 0.0}}',0);
CREATE TABLE runs (
	id VARCHAR(200) NOT NULL, 
	folder TEXT NOT NULL, 
	agent TEXT NOT NULL, 
	scenes JSON NOT NULL, 
	trials INTEGER NOT NULL, 
	strict BOOLEAN NOT NULL, 
	exit_code INTEGER, 
	started_at DATETIME NOT NULL, 
	finished_at DATETIME, 
	PRIMARY KEY (id)
);
INSERT INTO "runs" VALUES('20261206-221249','tests/results/main/20261206-221249','python tests/cli/stage/agent.py hello','["tests/cli/stage/hello.yaml"]',2,0,0,'2026-12-06 22:12:49.593298','2026-12-06 22:12:50.788406');
INSERT INTO "runs" VALUES('20261206-221254','tests/results/main/20261206-221254','python tests/cli/stage/agent.py exit 0','["tests/cli/stage/hello.yaml"]',2,0,1,'2026-12-06 22:12:54.488685','2026-12-06 22:12:55.354418');
CREATE TABLE trials (
	run_id VARCHAR(200) NOT NULL, 
	scene VARCHAR(200) NOT NULL, 
	number INTEGER NOT NULL, 
	world VARCHAR(200) NOT NULL, 
	outcome VARCHAR(20) NOT NULL, 
	exit_code INTEGER NOT NULL, 
	killed BOOLEAN NOT NULL, 
	timed_out BOOLEAN NOT NULL, 
	finish_reason VARCHAR(50) NOT NULL, 
	wall_seconds FLOAT NOT NULL, 
	simulated_seconds FLOAT NOT NULL, 
	calls INTEGER NOT NULL, 
	events INTEGER NOT NULL, 
	errors INTEGER NOT NULL, 
	unimplemented INTEGER NOT NULL, 
	after_finish INTEGER NOT NULL, 
	folder TEXT NOT NULL, attempts INTEGER DEFAULT '1' NOT NULL, sandbox VARCHAR(20), infrastructure TEXT, digests JSON, 
	PRIMARY KEY (run_id, scene, number), 
	CONSTRAINT trials_run FOREIGN KEY(run_id) REFERENCES runs (id) ON DELETE CASCADE
);
INSERT INTO "trials" VALUES('20261206-221249','hello',1,'wbef0644d89872a35a605b6477ac27c56','passed',0,0,0,'exited',0.618,10.0,2,5,0,0,0,'tests/results/main/20261206-221249/hello/1',1,'bwrap',NULL,'{"agent.log": "sha256:94e310bc3114d8d064fe984dda46543eadc69b5a183417482fd513bdd5d5dd26", "checks.json": "sha256:329e2b194a68ecca48d3b836489e7e0154254709ca31995a020eda7113812b62", "diff.json": "sha256:d74357fc7daf9406c50d98fe1637702eda38df05ce1c86a82a88bb8723daf99a", "events.jsonl": "sha256:d357461faaa77c5c2a7eb92b3ea468a0ac12927e73fd183581f97b974c6bd7aa", "output.txt": "sha256:4079ca92faf3b36b0149e7b6cfa88849251a2f67dec11a44647e8d81ae71b80d", "result.json": "sha256:6b72248a7797b8e95a46fb176f10b6c26bf3267fd9df91fcaebe1095fdb2bfee", "scene.json": "sha256:f9cccd0674ddbb8e28d4fe35b8a4fc2ab741798144ca6891dcaf25673ebcaef6", "state.json": "sha256:8124a120817c4b1ead559b7ca3ebb32fc9e0b7be1287bba28cdc3c877ae738de", "trace.jsonl": "sha256:e4aacdf56c5ad33b4092078d34935ef353c2659f4a0a72db8a27af3934988d84"}');
INSERT INTO "trials" VALUES('20261206-221249','hello',2,'wd9daaa24c0d9d3d0be13b7747d3f977b','passed',0,0,0,'exited',0.258,10.0,2,5,0,0,0,'tests/results/main/20261206-221249/hello/2',1,'bwrap',NULL,'{"agent.log": "sha256:1bf2bbf2376c5225e942d682a1026974a9d9eca6f6cc3780426398601f3558d1", "checks.json": "sha256:329e2b194a68ecca48d3b836489e7e0154254709ca31995a020eda7113812b62", "diff.json": "sha256:d74357fc7daf9406c50d98fe1637702eda38df05ce1c86a82a88bb8723daf99a", "events.jsonl": "sha256:d357461faaa77c5c2a7eb92b3ea468a0ac12927e73fd183581f97b974c6bd7aa", "output.txt": "sha256:4079ca92faf3b36b0149e7b6cfa88849251a2f67dec11a44647e8d81ae71b80d", "result.json": "sha256:51cbed3c981d025e506fb4edba39532d2ae8ef33cf700c05ea3345e28906bc2f", "scene.json": "sha256:f9cccd0674ddbb8e28d4fe35b8a4fc2ab741798144ca6891dcaf25673ebcaef6", "state.json": "sha256:8124a120817c4b1ead559b7ca3ebb32fc9e0b7be1287bba28cdc3c877ae738de", "trace.jsonl": "sha256:e4aacdf56c5ad33b4092078d34935ef353c2659f4a0a72db8a27af3934988d84"}');
INSERT INTO "trials" VALUES('20261206-221254','hello',1,'w74157481ae735df2539b3dffc1d36f08','failed',0,0,0,'exited',0.209,0.0,0,2,0,0,0,'tests/results/main/20261206-221254/hello/1',1,'bwrap',NULL,'{"agent.log": "sha256:7caa77e3359e13a8d48b1721941d45c60937fceeab4e3a54f357301bf926021c", "checks.json": "sha256:080824ecd98fbab9d25c53a9b4e8fa303ad3753ac9fd0472c24068891502352b", "diff.json": "sha256:ca3d163bab055381827226140568f3bef7eaac187cebd76878e0b63e9e442356", "events.jsonl": "sha256:a6847e5a6305561861c0bcd899c27e98213238a2b03a7f52f08cbe7f8673d9f7", "output.txt": "sha256:9a32c283da614b7c5c0424f5ef4f6c1ba22d92a2aabd0009a2cce9a8057b68a6", "result.json": "sha256:2a917ce80e19d827d64562c72f1d6074da73ddc871513d6d24df324a9e51c473", "scene.json": "sha256:f9cccd0674ddbb8e28d4fe35b8a4fc2ab741798144ca6891dcaf25673ebcaef6", "state.json": "sha256:60c8f9185aa75b28fcda6b06c90b96af940e7f9c9515bfc182c1def3b96a98a0", "trace.jsonl": "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"}');
INSERT INTO "trials" VALUES('20261206-221254','hello',2,'wc5cd09b8a25834c3ee91867b683c5ec8','failed',0,0,0,'exited',0.607,0.0,0,2,0,0,0,'tests/results/main/20261206-221254/hello/2',1,'bwrap',NULL,'{"agent.log": "sha256:7caa77e3359e13a8d48b1721941d45c60937fceeab4e3a54f357301bf926021c", "checks.json": "sha256:080824ecd98fbab9d25c53a9b4e8fa303ad3753ac9fd0472c24068891502352b", "diff.json": "sha256:ca3d163bab055381827226140568f3bef7eaac187cebd76878e0b63e9e442356", "events.jsonl": "sha256:a6847e5a6305561861c0bcd899c27e98213238a2b03a7f52f08cbe7f8673d9f7", "output.txt": "sha256:9a32c283da614b7c5c0424f5ef4f6c1ba22d92a2aabd0009a2cce9a8057b68a6", "result.json": "sha256:87745cccc9306e12e007b5450cd1ac0d6c1a2dd875d7175f1c4d0b5fd03eb1c7", "scene.json": "sha256:f9cccd0674ddbb8e28d4fe35b8a4fc2ab741798144ca6891dcaf25673ebcaef6", "state.json": "sha256:60c8f9185aa75b28fcda6b06c90b96af940e7f9c9515bfc182c1def3b96a98a0", "trace.jsonl": "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"}');
COMMIT;
