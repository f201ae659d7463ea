BEGIN TRANSACTION;
CREATE TABLE application_policies (
    application_id TEXT PRIMARY KEY REFERENCES applications(id),
    policy TEXT NOT NULL,
    updated_at BIGINT NOT NULL
);
INSERT INTO "application_policies" VALUES('app_X3fjWyYjSQaJMFO1dAn3qQ','{"password":{"minimumLength":10},"delivery":{},"primaryMethods":["emailOtp","password"],"mfaMode":"optional","mfaMethods":["totp","smsOtp","deviceApproval"],"devices":{"lifetimeMode":"sliding","approvalLifetimeSeconds":600,"approvalPollIntervalSeconds":1,"deviceAloneSignsIn":false,"enabled":true,"whenFull":"evictOldest","trustLifetimeDays":30,"riskOverridesTrust":true,"maximumDevices":10},"signup":{"profileFields":[{"name":"displayName","required":true,"label":"Name","kind":"text"}],"requireInviteCode":true},"flowTypes":["signin","signup","accountManage"]}',1795000000000);
CREATE TABLE applications (
    id TEXT PRIMARY KEY,
    project_id TEXT NOT NULL REFERENCES projects(id),
    config_id TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    client_type TEXT NOT NULL,
    client_secret_hash TEXT,
    flow_types TEXT NOT NULL,
    auto_create_users BIGINT NOT NULL DEFAULT 0,
    is_dev BIGINT NOT NULL DEFAULT 0,
    created_at BIGINT NOT NULL
, refresh_absolute_ms BIGINT, refresh_idle_ms BIGINT, refresh_grace_ms BIGINT, dpop_mode TEXT NOT NULL DEFAULT 'optional', dpop_require_nonce BIGINT NOT NULL DEFAULT 0, auth_method TEXT, assertion_alg TEXT, client_secret_salt TEXT, jwks TEXT, grant_types TEXT, template_id TEXT);
INSERT INTO "applications" VALUES('app_X3fjWyYjSQaJMFO1dAn3qQ','prj_pe7sDBxlLtBqXN-7TrKnyA','cfg_e2e','Dev application','public',NULL,'accountManage signin signup',1,1,1795000000000,NULL,NULL,NULL,'optional',0,NULL,NULL,NULL,NULL,NULL,NULL);
CREATE TABLE approval_requests (
    id TEXT PRIMARY KEY,
    flow_id TEXT NOT NULL,
    application_id TEXT NOT NULL,
    user_id TEXT NOT NULL,
    matching_number TEXT NOT NULL,
    qr_secret_hash TEXT NOT NULL,
    state TEXT NOT NULL,
    location TEXT,
    user_agent TEXT,
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    decided_at BIGINT,
    decided_by_device_id TEXT
);
INSERT INTO "approval_requests" VALUES('apr_CHNnu5WIHUtN5GNmouuxrA','flw_CTClWlno8rFQRuQYLORlkA','app_X3fjWyYjSQaJMFO1dAn3qQ','usr_FnPQMSNzfFPeY2-Ff9MELA','62','92338bef3037c669c7f401c3a9b8b18531fead079f4d45efd388ea838a0e24a7','approved','127.0.0.x',NULL,1795000093000,1795000693000,1795000093000,'dev_WoFwLI3dNrUis2VK_A3Uuw');
CREATE TABLE authorization_codes (
    code_hash TEXT PRIMARY KEY,
    application_id TEXT NOT NULL REFERENCES applications(id),
    user_id TEXT NOT NULL REFERENCES users(id),
    session_id TEXT NOT NULL REFERENCES sessions(id),
    flow_id TEXT NOT NULL,
    code_challenge TEXT NOT NULL,
    expires_at BIGINT NOT NULL,
    used_at BIGINT,
    created_at BIGINT NOT NULL
, scope TEXT);
INSERT INTO "authorization_codes" VALUES('a008e833ea0617c19d213f8b96bb7be590491388fcf2dadd5954cb32732b1525','app_X3fjWyYjSQaJMFO1dAn3qQ','usr_LwVtr72ovuyu0BI_3vA0Xg','ses_8mN78TNqqyRa-i7XZvvYVQ','flw_gbsWS-KdspvvL0sIgnkfHQ','5S7Mu1cXC-cjho2k80NBtMvrjb1ngir89Z2yNrCl38A',1795000060000,NULL,1795000000000,NULL);
INSERT INTO "authorization_codes" VALUES('a1d3c207140523e43d973a76e25fd2e3a9c92dd3c9c6d98c97cd70555dda1ef8','app_X3fjWyYjSQaJMFO1dAn3qQ','usr_LwVtr72ovuyu0BI_3vA0Xg','ses_8FtHwEm-Vqen6XTbCealXg','flw_3oKS1FI_anmsxX-R47AISg','QEK8WBXeg4vX5tjQ0JjAPutlmJnOZsK0lFuQ6pp10nk',1795000060000,NULL,1795000000000,NULL);
INSERT INTO "authorization_codes" VALUES('b1e32366681f241277844a5c3cb688c38d3c4f5c997636e5625f2def55a5f5d5','app_X3fjWyYjSQaJMFO1dAn3qQ','usr_FnPQMSNzfFPeY2-Ff9MELA','ses_Rx353LhX4zJK-13o4cNyXQ','flw_5baLUxKfEaqpdv5PsNNlsA','G3Fl2LCr_obMzUMxgJcBKEoAorLe4rAZW8P038W24g0',1795000091000,NULL,1795000031000,NULL);
INSERT INTO "authorization_codes" VALUES('dc63e56bd40c950aa638019b640c04e1875c5f288f19df6a4a4a59c9ba98b063','app_X3fjWyYjSQaJMFO1dAn3qQ','usr_FnPQMSNzfFPeY2-Ff9MELA','ses_bjO_bG0ec-2g1UaIwmcvag','flw__ZNtNCpPRcZ5ob_tTshUAw','1o3bRfua4j9msagpgB6_M64eNQOXmUDkXszpyWoDF4o',1795000091000,1795000031000,1795000031000,NULL);
INSERT INTO "authorization_codes" VALUES('b3764ec27ad2d49ca9cfc17b37c8be1c1cf9f6fad971ce918ac66d3b151e74a0','app_X3fjWyYjSQaJMFO1dAn3qQ','usr_vl5djfwDP6K4dtPuY90UxA','ses_K_-fM5L-1BpbUUxY1fHslw','flw_yQn9sF_bTWnedpqjFvb3TA','y_i4ApCxnP3yM6lcu5J-G0MKSjXRVdOXbCydMvCqt68',1795000122000,NULL,1795000062000,NULL);
INSERT INTO "authorization_codes" VALUES('755c113cb6b0753ea6698598321310773fb9783439fc06d14afe3d2498de6659','app_X3fjWyYjSQaJMFO1dAn3qQ','usr_LwVtr72ovuyu0BI_3vA0Xg','ses_9VLdIrqoQok-RpAr7iQkpw','flw_gwsgipXi94lcJBgmw2Sbkg','SgFr-GH26lmpXASKfj7nq_Pl9zcj5jDc2FrEtu1sfhQ',1795000153000,1795000124000,1795000093000,NULL);
INSERT INTO "authorization_codes" VALUES('a95fdcb0b8646e47bf946fd92bd65537a2b7706d3858b6b2794a9d24169610ee','app_X3fjWyYjSQaJMFO1dAn3qQ','usr_LwVtr72ovuyu0BI_3vA0Xg','ses_G7UN0Oyy1h2Ih8cXEMqq3Q','flw_S2gzuF1ZuNiEV2ywIUYXmw','pMiw3TmgVdezJszZB39eM72l7sdBIA-64fx_6FjZh1o',1795000184000,1795000155000,1795000124000,NULL);
CREATE TABLE client_assertions (
    assertion_hash TEXT PRIMARY KEY,
    expires_at BIGINT NOT NULL
);
CREATE TABLE delivery_outbox (
    id TEXT PRIMARY KEY,
    project_id TEXT NOT NULL,
    flow_id TEXT,
    channel TEXT NOT NULL,
    recipient TEXT NOT NULL,
    subject TEXT NOT NULL,
    body TEXT NOT NULL,
    code TEXT,
    idempotency_key TEXT NOT NULL UNIQUE,
    status TEXT NOT NULL,
    attempts BIGINT NOT NULL DEFAULT 0,
    next_attempt_at BIGINT NOT NULL,
    lease_until BIGINT,
    last_error TEXT,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    delivered_at BIGINT
);
INSERT INTO "delivery_outbox" VALUES('dlv_fKi_-cvZccN3XFQjBXjCFw','prj_pe7sDBxlLtBqXN-7TrKnyA','flw_gbsWS-KdspvvL0sIgnkfHQ','email','ann@example.com','','',NULL,'idk__hlXg7lK6t_REOiHCAhlww','delivered',1,1795000060000,NULL,NULL,1795000000000,1795000000000,1795000000000);
INSERT INTO "delivery_outbox" VALUES('dlv_FWxSmaHko-_xFF86h7m8aA','prj_pe7sDBxlLtBqXN-7TrKnyA','flw_5baLUxKfEaqpdv5PsNNlsA','email','bob@example.com','','',NULL,'idk_NHPxaZuxv__JbrAGcmkJSQ','delivered',1,1795000091000,NULL,NULL,1795000031000,1795000031000,1795000031000);
INSERT INTO "delivery_outbox" VALUES('dlv_rNPZcmmANleaNRpSVi_Y8w','prj_pe7sDBxlLtBqXN-7TrKnyA','flw_yQn9sF_bTWnedpqjFvb3TA','email','carl@example.com','','',NULL,'idk_X2nYigivcFg0HmUlsvac1g','delivered',1,1795000122000,NULL,NULL,1795000062000,1795000062000,1795000062000);
INSERT INTO "delivery_outbox" VALUES('dlv_kK6aBEp9yZDlO4ILjVDoPw','prj_pe7sDBxlLtBqXN-7TrKnyA','flw_bHb07pklBW7Fk0SROSIudA','email','ann@example.com','','',NULL,'idk_TNHdRtXS32gSi2tTNsgf8g','delivered',1,1795000153000,NULL,NULL,1795000093000,1795000093000,1795000093000);
INSERT INTO "delivery_outbox" VALUES('dlv_sBmk0MPwOWIORc6w3KIxsQ','prj_pe7sDBxlLtBqXN-7TrKnyA','flw_VxRRo2S88Wu5GlWWN2YRMA','sms','+14155550123','','',NULL,'idk_TT8qJZcjx7WVzBu1IjUOKw','delivered',1,1795000153000,NULL,NULL,1795000093000,1795000093000,1795000093000);
INSERT INTO "delivery_outbox" VALUES('dlv_QyZ--anORZszFnXGsBifFg','prj_pe7sDBxlLtBqXN-7TrKnyA','flw_23YPVbO3AGeEXNEfXpH2aA','email','dana@example.com','','',NULL,'idk_uctowTRmyfOgaP3RVHjiPA','delivered',1,1795000153000,NULL,NULL,1795000093000,1795000093000,1795000093000);
INSERT INTO "delivery_outbox" VALUES('dlv_NzEGu0dNNmhLJeALS51nOw','prj_pe7sDBxlLtBqXN-7TrKnyA','flw_68kyY4nA_3pMbuO8XQuHig','email','erin@example.com','','',NULL,'idk_1T6dr1VHnwbbBhu65ZG4GA','delivered',1,1795000153000,NULL,NULL,1795000093000,1795000093000,1795000093000);
INSERT INTO "delivery_outbox" VALUES('dlv_Q6n1NFDmokMx5_KD5JSO8g','prj_pe7sDBxlLtBqXN-7TrKnyA','flw_CTClWlno8rFQRuQYLORlkA','email','bob@example.com','','',NULL,'idk_m-R-e3L-AKWg4HpJ12xUSw','delivered',1,1795000153000,NULL,NULL,1795000093000,1795000093000,1795000093000);
CREATE TABLE device_request_signatures (
    signature_hash TEXT PRIMARY KEY,
    expires_at BIGINT NOT NULL
);
INSERT INTO "device_request_signatures" VALUES('31006ccef559b104f63e41373f4b53d5f8840b56c14b3b99d8340a21830ef4e5',1795000393000);
CREATE TABLE dpop_proofs (
    proof_hash TEXT PRIMARY KEY,
    expires_at BIGINT NOT NULL
);
CREATE TABLE external_identities (
    project_id TEXT NOT NULL REFERENCES projects(id),
    issuer TEXT NOT NULL,
    subject TEXT NOT NULL,
    user_id TEXT NOT NULL REFERENCES users(id),
    created_at BIGINT NOT NULL,
    PRIMARY KEY (project_id, issuer, subject)
);
CREATE TABLE flows (
    id TEXT PRIMARY KEY,
    application_id TEXT NOT NULL REFERENCES applications(id),
    flow_type TEXT NOT NULL,
    identifier TEXT NOT NULL,
    user_id TEXT,
    state TEXT NOT NULL,
    token_hash TEXT NOT NULL,
    code_challenge TEXT NOT NULL,
    otp_hash TEXT,
    otp_expires_at BIGINT,
    resend_at BIGINT,
    resend_count BIGINT NOT NULL DEFAULT 0,
    failed_attempts BIGINT NOT NULL DEFAULT 0,
    session_id TEXT,
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
, progress TEXT);
INSERT INTO "flows" VALUES('flw_gbsWS-KdspvvL0sIgnkfHQ','app_X3fjWyYjSQaJMFO1dAn3qQ','signup','ann@example.com','usr_LwVtr72ovuyu0BI_3vA0Xg','completed','840a98d1bff3a283082f5cd2727f53b43c56bf40f1e28a99b3103a4f3a81fcd0','5S7Mu1cXC-cjho2k80NBtMvrjb1ngir89Z2yNrCl38A',NULL,1795000600000,1795000030000,0,0,'ses_8mN78TNqqyRa-i7XZvvYVQ',1795000000000,1795000900000,1795000000000,'{"options":["totp","smsOtp"],"profile":{"displayName":"ann@example.com"},"purpose":"enrolment","sealedInviteCode":"v1.zZlZm9-jWvdAycAkWpRJzFLgiyczPDIP4NDvbNVgxf7ALozOW72HjxINQFOnGvjZxe0gkIq9","secondFactorDone":false,"codeDestination":"ann@example.com","enrolmentOffered":true,"primaryMethod":"emailOtp","stage":"selectMethod","secondFactorSkipped":true,"primaryDone":true,"codeChannel":"email","mode":"signUp","passwordPurpose":"create","createdUser":false,"skippable":true,"amr":["otp","pwd"],"deviceProven":false,"deviceEnrolOffered":false,"passwordFailures":0,"totpFailures":0,"deviceChecked":false}');
INSERT INTO "flows" VALUES('flw_3oKS1FI_anmsxX-R47AISg','app_X3fjWyYjSQaJMFO1dAn3qQ','signin','ann@example.com','usr_LwVtr72ovuyu0BI_3vA0Xg','completed','babfb953b75a2e64702bea4ff20d492a2030924b992cea1cae11252b92bf8cfb','QEK8WBXeg4vX5tjQ0JjAPutlmJnOZsK0lFuQ6pp10nk',NULL,NULL,NULL,0,0,'ses_8FtHwEm-Vqen6XTbCealXg',1795000000000,1795000900000,1795000000000,'{"deviceEnrolOffered":false,"options":[],"passwordFailures":0,"secondFactorDone":true,"stage":"setupTotp","skippable":false,"createdUser":false,"passwordPurpose":"signIn","mode":"signIn","primaryMethod":"password","primaryDone":true,"totpFailures":0,"enrolmentOffered":false,"purpose":"enrolment","deviceProven":false,"secondFactorSkipped":false,"amr":["pwd","otp"],"deviceChecked":false}');
INSERT INTO "flows" VALUES('flw_5baLUxKfEaqpdv5PsNNlsA','app_X3fjWyYjSQaJMFO1dAn3qQ','signup','bob@example.com','usr_FnPQMSNzfFPeY2-Ff9MELA','completed','6be36fd3f57ccb4c706d3f9b9189baac2bd8b69e1af537667b684860c9c2a1cf','G3Fl2LCr_obMzUMxgJcBKEoAorLe4rAZW8P038W24g0',NULL,1795000631000,1795000061000,0,0,'ses_Rx353LhX4zJK-13o4cNyXQ',1795000031000,1795000931000,1795000031000,'{"options":["totp","smsOtp"],"passwordFailures":0,"skippable":true,"passwordPurpose":"create","codeDestination":"bob@example.com","deviceProven":false,"amr":["otp","pwd"],"deviceChecked":false,"secondFactorSkipped":true,"primaryDone":true,"purpose":"enrolment","createdUser":false,"profile":{"displayName":"bob@example.com"},"enrolmentOffered":true,"mode":"signUp","secondFactorDone":false,"totpFailures":0,"primaryMethod":"emailOtp","sealedInviteCode":"v1.Ov_ueJwNe6p3twom64ijuudSMnTm_dYgTGZaCUVZUJKa_MT3J0G4ZanDZHmw61KN1SsiB5aH","stage":"selectMethod","codeChannel":"email","deviceHint":{"canEnrol":true},"deviceEnrolOffered":false,"userAgent":"keyway-swift\/0.1.0 (Linux)"}');
INSERT INTO "flows" VALUES('flw__ZNtNCpPRcZ5ob_tTshUAw','app_X3fjWyYjSQaJMFO1dAn3qQ','signin','bob@example.com','usr_FnPQMSNzfFPeY2-Ff9MELA','completed','8326b4850d21ca79a9ff8a468bce43792d566f20b1ed18e09c46f907f2ca4057','1o3bRfua4j9msagpgB6_M64eNQOXmUDkXszpyWoDF4o',NULL,NULL,NULL,0,0,'ses_bjO_bG0ec-2g1UaIwmcvag',1795000031000,1795000931000,1795000031000,'{"options":[],"deviceProven":false,"passwordPurpose":"signIn","amr":["pwd","otp"],"userAgent":"keyway-swift\/0.1.0 (Linux)","secondFactorDone":true,"mode":"signIn","createdUser":false,"passwordFailures":0,"enrolmentOffered":false,"primaryMethod":"password","deviceHint":{"canEnrol":true},"skippable":false,"stage":"deviceEnroll","totpFailures":0,"secondFactorSkipped":false,"purpose":"enrolment","deviceEnrolOffered":true,"primaryDone":true,"deviceChecked":false}');
INSERT INTO "flows" VALUES('flw_yQn9sF_bTWnedpqjFvb3TA','app_X3fjWyYjSQaJMFO1dAn3qQ','signup','carl@example.com','usr_vl5djfwDP6K4dtPuY90UxA','completed','6cf9c205bef1e8f227e7e630216e604c228c64b97ffb6ba256c1bb12e46946c3','y_i4ApCxnP3yM6lcu5J-G0MKSjXRVdOXbCydMvCqt68',NULL,1795000662000,1795000092000,0,0,'ses_K_-fM5L-1BpbUUxY1fHslw',1795000062000,1795000962000,1795000062000,'{"codeChannel":"email","primaryDone":true,"deviceChecked":false,"secondFactorDone":false,"amr":["otp","pwd"],"createdUser":false,"codeDestination":"carl@example.com","skippable":true,"passwordPurpose":"create","primaryMethod":"emailOtp","sealedInviteCode":"v1.YV6M1umqoor8Y9234oU6aiD_b9yshXiRTQ3vspSUlCAW1tAPAf9dkyoGwBvdwyFP7VFyusy5","stage":"selectMethod","purpose":"enrolment","profile":{"displayName":"carl@example.com"},"secondFactorSkipped":true,"enrolmentOffered":true,"deviceEnrolOffered":false,"passwordFailures":0,"options":["totp","smsOtp"],"deviceProven":false,"totpFailures":0,"mode":"signUp"}');
INSERT INTO "flows" VALUES('flw_JE8nivjUcEI0hIrLj6XQkg','app_X3fjWyYjSQaJMFO1dAn3qQ','signin','ann@example.com','usr_LwVtr72ovuyu0BI_3vA0Xg','awaitingCode','3033d6bc7df36695663a400ba5a531907657c07203491c452aaab921add4fc27','bMOMU0E1cpYLz4uUdZuUThJjRMXfwA_stxGksrMq2ms',NULL,NULL,NULL,0,0,NULL,1795000093000,1795000993000,1795000093000,'{"deviceChecked":false,"amr":[],"enrolmentOffered":false,"secondFactorDone":false,"stage":"selectMethod","createdUser":false,"skippable":false,"secondFactorSkipped":false,"mode":"signIn","passwordFailures":0,"deviceProven":false,"options":["emailOtp","password"],"primaryDone":false,"deviceEnrolOffered":false,"purpose":"primary","totpFailures":0}');
INSERT INTO "flows" VALUES('flw_bHb07pklBW7Fk0SROSIudA','app_X3fjWyYjSQaJMFO1dAn3qQ','signin','ann@example.com','usr_LwVtr72ovuyu0BI_3vA0Xg','awaitingCode','aaa2e1ff6e15c1f7114323b73f981ea1c85578b65f698627b9eb271cd1b9ec55','3TNfC-MuSwAgkrGzXYIpvt0bQwlHjM8eXFzED223rD8','57182171420e62cb988d36ab40d6b080cfe78a51f0e24aee8e37c4c859f8f2a1',1795000693000,1795000123000,0,0,NULL,1795000093000,1795000993000,1795000093000,'{"deviceProven":false,"codeChannel":"email","deviceEnrolOffered":false,"skippable":false,"deviceChecked":false,"createdUser":false,"stage":"enterCode","totpFailures":0,"options":[],"secondFactorSkipped":false,"passwordFailures":0,"codeDestination":"ann@example.com","mode":"signIn","purpose":"primary","amr":[],"secondFactorDone":false,"enrolmentOffered":false,"primaryDone":false}');
INSERT INTO "flows" VALUES('flw_5-hK_rZHnzSP7oYPPne3Ww','app_X3fjWyYjSQaJMFO1dAn3qQ','signin','ann@example.com','usr_LwVtr72ovuyu0BI_3vA0Xg','awaitingCode','9f7a229f92d7204272253a42e55a883d4701b93d1116bf065ff9dc62c6899e62','-hmRscUuoZjbCitMkQovBMnv1KWnHdvee7dP9WAHFok',NULL,NULL,NULL,0,0,NULL,1795000093000,1795000993000,1795000093000,'{"enrolmentOffered":false,"totpFailures":0,"deviceChecked":false,"createdUser":false,"secondFactorSkipped":false,"amr":[],"purpose":"primary","deviceProven":false,"mode":"signIn","skippable":false,"options":[],"secondFactorDone":false,"passwordPurpose":"signIn","deviceEnrolOffered":false,"stage":"enterPassword","passwordFailures":0,"primaryDone":false}');
INSERT INTO "flows" VALUES('flw_HcAv4WJBLNdgthxxlOf-Zg','app_X3fjWyYjSQaJMFO1dAn3qQ','signin','ann@example.com','usr_LwVtr72ovuyu0BI_3vA0Xg','awaitingCode','1ced1116e4021db557190f7e6d50b2c9febe1aa20d4d8dcb5455534c47c30ced','uEOL59GLP4Y3nO79RHjsI-kUOtQFwlMsHIX9UT2knf0',NULL,NULL,NULL,0,0,NULL,1795000093000,1795000993000,1795000093000,'{"skippable":true,"purpose":"secondFactor","amr":["pwd"],"deviceChecked":false,"stage":"selectMethod","passwordFailures":0,"secondFactorSkipped":false,"createdUser":false,"passwordPurpose":"signIn","deviceProven":false,"options":["totp"],"secondFactorDone":false,"enrolmentOffered":false,"primaryMethod":"password","mode":"signIn","deviceEnrolOffered":false,"totpFailures":0,"primaryDone":true}');
INSERT INTO "flows" VALUES('flw_HI8E-RSWfFS4kuXAP7Wfzw','app_X3fjWyYjSQaJMFO1dAn3qQ','signin','ann@example.com','usr_LwVtr72ovuyu0BI_3vA0Xg','awaitingCode','5753516a7a3a4622ff20fa46e2279c6427fe07f4913044413a780e18cfe44da8','Uz8CdqKAtHVr8FGX_PnXRIAlptbTtbfH-WmeD896pyI',NULL,NULL,NULL,0,0,NULL,1795000093000,1795000993000,1795000093000,'{"purpose":"secondFactor","stage":"enterTotp","deviceProven":false,"passwordFailures":0,"deviceEnrolOffered":false,"skippable":false,"amr":["pwd"],"mode":"signIn","createdUser":false,"options":[],"primaryDone":true,"totpFailures":0,"deviceChecked":false,"secondFactorSkipped":false,"enrolmentOffered":false,"primaryMethod":"password","secondFactorDone":false,"passwordPurpose":"signIn"}');
INSERT INTO "flows" VALUES('flw_ADqVhQKSE_qXUfoGrmE02w','app_X3fjWyYjSQaJMFO1dAn3qQ','signin','carl@example.com','usr_vl5djfwDP6K4dtPuY90UxA','awaitingCode','ecd7a68d989dce121f20687c1f0caa7d35e5aecd901e8d79fae1c1293b8cc98a','Yzso5kgiDmH5jwIGkuHzM8L7HIg6ZkbPdSov51P5E-I',NULL,NULL,NULL,0,0,NULL,1795000093000,1795000993000,1795000093000,'{"deviceProven":false,"passwordFailures":0,"createdUser":false,"primaryDone":true,"enrolmentOffered":false,"secondFactorDone":false,"purpose":"enrolment","pendingTotpSecret":"v1.anhobQzZtr0ORePAreq0SRrCt3O3yaboPJaBonU0cByV6XzR9D3s5b5eI5Heu1bg","passwordPurpose":"signIn","totpFailures":0,"amr":["pwd"],"stage":"setupTotp","options":[],"skippable":false,"deviceEnrolOffered":false,"secondFactorSkipped":false,"deviceChecked":false,"primaryMethod":"password","mode":"signIn"}');
INSERT INTO "flows" VALUES('flw_VxRRo2S88Wu5GlWWN2YRMA','app_X3fjWyYjSQaJMFO1dAn3qQ','signin','carl@example.com','usr_vl5djfwDP6K4dtPuY90UxA','awaitingCode','704b347d8e913b67813ef7014ad44241be5febba2ea7baa54854c313cb24e129','OO6S8NJuzKZF9e_JGX4lPMkrtJEgYlhPgMI-Vow_4gQ','f0a5ceb9bcbd9afdaca9fd601834195246134fd6aa949673c0adb594c88e7879',1795000693000,1795000123000,0,0,NULL,1795000093000,1795000993000,1795000093000,'{"enrolmentOffered":false,"totpFailures":0,"secondFactorDone":false,"amr":["pwd"],"skippable":false,"deviceProven":false,"passwordPurpose":"signIn","secondFactorSkipped":false,"deviceChecked":false,"deviceEnrolOffered":false,"pendingPhone":"+14155550123","passwordFailures":0,"codeDestination":"+14155550123","mode":"signIn","primaryDone":true,"createdUser":false,"primaryMethod":"password","stage":"enterCode","codeChannel":"sms","purpose":"enrolment","options":[]}');
INSERT INTO "flows" VALUES('flw_23YPVbO3AGeEXNEfXpH2aA','app_X3fjWyYjSQaJMFO1dAn3qQ','signup','dana@example.com',NULL,'awaitingCode','c7514ee9c4642c42fcfeb2d31733b666674a337d6b03d4b3a6afeb7d187c1016','gbXEbqNFTZqVHII6IOwkR24U8GGkBeBfLUulm3Zl910',NULL,1795000693000,1795000123000,0,0,NULL,1795000093000,1795000993000,1795000093000,'{"createdUser":false,"passwordFailures":0,"totpFailures":0,"deviceChecked":false,"codeChannel":"email","primaryDone":true,"amr":["otp"],"skippable":false,"purpose":"primary","sealedInviteCode":"v1.AZtY-3bpY2sfVoN_yM8UFaWhUHEVdnUPmycdEfpc_KDjj3_VFtdeV8xdX3zxIAYbAXQGjiFL","secondFactorSkipped":false,"primaryMethod":"emailOtp","enrolmentOffered":false,"deviceEnrolOffered":false,"deviceProven":false,"secondFactorDone":false,"codeDestination":"dana@example.com","mode":"signUp","options":[],"stage":"form"}');
INSERT INTO "flows" VALUES('flw_68kyY4nA_3pMbuO8XQuHig','app_X3fjWyYjSQaJMFO1dAn3qQ','signup','erin@example.com',NULL,'awaitingCode','1952a38a91c59f050f0755d4ca1763fb9a5db15e919df2a221961fbfee38f2b4','FW5EaHPqS7ri461RHqn_JXLIYHfSbWc41DZhMbYuRNI',NULL,1795000693000,1795000123000,0,0,NULL,1795000093000,1795000993000,1795000093000,'{"skippable":false,"profile":{"displayName":"Erin"},"sealedInviteCode":"v1.Rnp8lRbh6X4bumJ0d9PV4UxgOZPkS1kUPOG8AbeFY2UNTmd90uVce-XexKpmf_tpKjTykvvD","codeDestination":"erin@example.com","deviceChecked":false,"deviceProven":false,"createdUser":false,"secondFactorSkipped":false,"amr":["otp"],"enrolmentOffered":false,"secondFactorDone":false,"primaryDone":true,"codeChannel":"email","primaryMethod":"emailOtp","passwordPurpose":"create","passwordFailures":0,"totpFailures":0,"deviceEnrolOffered":false,"purpose":"primary","stage":"enterPassword","options":[],"mode":"signUp"}');
INSERT INTO "flows" VALUES('flw_CTClWlno8rFQRuQYLORlkA','app_X3fjWyYjSQaJMFO1dAn3qQ','signin','bob@example.com','usr_FnPQMSNzfFPeY2-Ff9MELA','awaitingCode','a4aaa6f1f505c59e0c084c36ec438f0f2502fdf1747eb8cb3c3fa59c6179458f','FR779pLmxxtnMl-ltVjJ1fOCnng1OGGs0oXIVD-YyIs',NULL,1795000693000,1795000123000,0,0,NULL,1795000093000,1795000993000,1795000093000,'{"stage":"awaitApproval","mode":"signIn","secondFactorDone":false,"codeChannel":"email","purpose":"secondFactor","approvalId":"apr_CHNnu5WIHUtN5GNmouuxrA","primaryMethod":"emailOtp","amr":["otp"],"options":[],"deviceChecked":false,"matchingNumber":"62","passwordFailures":0,"secondFactorSkipped":false,"totpFailures":0,"deviceEnrolOffered":false,"primaryDone":true,"createdUser":false,"deviceProven":false,"enrolmentOffered":false,"codeDestination":"bob@example.com","sealedApprovalSecret":"v1.pJF-daa11jvhHBApudsgiiVStrnF85YCcwr_o11HpCqRjDTFfH1VOOCsuK-_kuncb7DvxlGQneLc-6Elk_GG7FpD-RDO_aExzAMy","approvalExpiresAt":1795000693000,"skippable":false}');
INSERT INTO "flows" VALUES('flw_gwsgipXi94lcJBgmw2Sbkg','app_X3fjWyYjSQaJMFO1dAn3qQ','signin','ann@example.com','usr_LwVtr72ovuyu0BI_3vA0Xg','completed','423534696d5f7ef6fa3fced568e6aa042e095054631031dfbc3c44eccf6bd832','SgFr-GH26lmpXASKfj7nq_Pl9zcj5jDc2FrEtu1sfhQ',NULL,NULL,NULL,0,0,'ses_9VLdIrqoQok-RpAr7iQkpw',1795000093000,1795000993000,1795000093000,'{"createdUser":false,"options":[],"secondFactorDone":true,"passwordFailures":0,"skippable":false,"primaryDone":true,"totpFailures":0,"mode":"signIn","deviceProven":false,"primaryMethod":"password","amr":["pwd","otp"],"purpose":"secondFactor","passwordPurpose":"signIn","enrolmentOffered":false,"deviceEnrolOffered":false,"secondFactorSkipped":false,"deviceChecked":false,"stage":"enterTotp"}');
INSERT INTO "flows" VALUES('flw_Z8SVUEzm6LybY1AoRBtlsg','app_X3fjWyYjSQaJMFO1dAn3qQ','accountManage','ann@example.com','usr_LwVtr72ovuyu0BI_3vA0Xg','awaitingCode','d2fc6a8be05942ec41541f19a477a2e07857a99598ff6eaa1af6daee5a9a4c78','qdf0W56kwU4-zKDry6hgEMZUXWQmTRpduxmKx1uigFI',NULL,NULL,NULL,0,0,'ses_9VLdIrqoQok-RpAr7iQkpw',1795000124000,1795001024000,1795000124000,'{"stage":"manageAccount","purpose":"primary","deviceProven":false,"primaryDone":true,"secondFactorSkipped":false,"secondFactorDone":false,"enrolmentOffered":false,"totpFailures":0,"deviceChecked":false,"deviceEnrolOffered":false,"mode":"manage","amr":[],"passwordFailures":0,"skippable":false,"createdUser":false,"options":[],"grantedScope":"openid email offline_access"}');
INSERT INTO "flows" VALUES('flw_S2gzuF1ZuNiEV2ywIUYXmw','app_X3fjWyYjSQaJMFO1dAn3qQ','signin','ann@example.com','usr_LwVtr72ovuyu0BI_3vA0Xg','completed','51fc9bd9b55c3e8d070e7a6a11c67a89585bdb63366cd03ffdd47e347aac0d1d','pMiw3TmgVdezJszZB39eM72l7sdBIA-64fx_6FjZh1o',NULL,NULL,NULL,0,0,'ses_G7UN0Oyy1h2Ih8cXEMqq3Q',1795000124000,1795001024000,1795000124000,'{"passwordFailures":0,"purpose":"secondFactor","stage":"enterTotp","primaryDone":true,"options":[],"deviceProven":false,"secondFactorSkipped":false,"createdUser":false,"amr":["pwd","otp"],"skippable":false,"passwordPurpose":"signIn","deviceChecked":false,"primaryMethod":"password","mode":"signIn","totpFailures":0,"enrolmentOffered":false,"secondFactorDone":true,"deviceEnrolOffered":false}');
INSERT INTO "flows" VALUES('flw_OyA0bajN1vqHSKvWFVTN_w','app_X3fjWyYjSQaJMFO1dAn3qQ','accountManage','ann@example.com','usr_LwVtr72ovuyu0BI_3vA0Xg','awaitingCode','cf9694cde978f31b6e41bc1f8413c769eede6eec0d2e626b710b0d782f3cc712','IQS0isyrzJu1RNvEvycjAE2RnhwZdRm8QeUiCToMOP4',NULL,NULL,NULL,0,0,'ses_G7UN0Oyy1h2Ih8cXEMqq3Q',1795000155000,1795001055000,1795000155000,'{"secondFactorDone":false,"passwordFailures":0,"enrolmentOffered":false,"skippable":false,"deviceProven":false,"secondFactorSkipped":false,"options":["emailOtp","totp","password"],"mode":"manage","amr":[],"grantedScope":"openid email offline_access","deviceEnrolOffered":false,"stage":"selectMethod","pendingOperation":"changePassword","primaryDone":true,"totpFailures":0,"createdUser":false,"purpose":"reverification","deviceChecked":false}');
CREATE TABLE invite_codes (
    code_hash TEXT PRIMARY KEY,
    application_id TEXT NOT NULL REFERENCES applications(id),
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    used_at BIGINT,
    used_by_user_id TEXT
);
INSERT INTO "invite_codes" VALUES('3b3e98748060271dbd26a3eaba222191522ab4116b982089a5ecb9104ad96807','app_X3fjWyYjSQaJMFO1dAn3qQ',1795000000000,1795604800000,1795000000000,'usr_LwVtr72ovuyu0BI_3vA0Xg');
INSERT INTO "invite_codes" VALUES('8045b229617e35c5a9ca70d2579e6a38d4815eab9b4f61a9d8fa70ce023cb679','app_X3fjWyYjSQaJMFO1dAn3qQ',1795000031000,1795604831000,1795000031000,'usr_FnPQMSNzfFPeY2-Ff9MELA');
INSERT INTO "invite_codes" VALUES('73d5d5f993ad6a54c678150cd00cfb051058a5d83b076eb66cbd3f130b36a132','app_X3fjWyYjSQaJMFO1dAn3qQ',1795000062000,1795604862000,1795000062000,'usr_vl5djfwDP6K4dtPuY90UxA');
INSERT INTO "invite_codes" VALUES('0e7426c64c774929aae844d0533a1bca15852064e4bd4b40d8e72d05d9d55fbb','app_X3fjWyYjSQaJMFO1dAn3qQ',1795000093000,1795604893000,NULL,NULL);
INSERT INTO "invite_codes" VALUES('e009f4e0ccf75af7485cc252ff9e6041cd7e514a47b9b1fd9dc3539784268bf4','app_X3fjWyYjSQaJMFO1dAn3qQ',1795000093000,1795604893000,NULL,NULL);
CREATE TABLE keyway_migrations (
    version BIGINT PRIMARY KEY,
    name TEXT NOT NULL,
    applied_at BIGINT NOT NULL
);
INSERT INTO "keyway_migrations" VALUES(1,'initial schema',1795000000000);
INSERT INTO "keyway_migrations" VALUES(2,'refresh token rotation',1795000000000);
INSERT INTO "keyway_migrations" VALUES(3,'access token revocation',1795000000000);
INSERT INTO "keyway_migrations" VALUES(4,'DPoP',1795000000000);
INSERT INTO "keyway_migrations" VALUES(5,'user profiles',1795000000000);
INSERT INTO "keyway_migrations" VALUES(6,'token exchange',1795000000000);
INSERT INTO "keyway_migrations" VALUES(7,'dynamic client registration',1795000000000);
INSERT INTO "keyway_migrations" VALUES(8,'rate limits',1795000000000);
INSERT INTO "keyway_migrations" VALUES(9,'application policies and admin API',1795000000000);
INSERT INTO "keyway_migrations" VALUES(10,'delivery outbox',1795000000000);
INSERT INTO "keyway_migrations" VALUES(11,'adaptive flows',1795000000000);
INSERT INTO "keyway_migrations" VALUES(12,'trusted devices and approvals',1795000000000);
INSERT INTO "keyway_migrations" VALUES(13,'the scope of an authorization code',1795000000000);
INSERT INTO "keyway_migrations" VALUES(14,'when a refresh token''s answer went out',1795000000000);
CREATE TABLE profile_schemas (
    project_id TEXT PRIMARY KEY REFERENCES projects(id),
    fields TEXT NOT NULL,
    updated_at BIGINT NOT NULL
);
CREATE TABLE projects (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    is_dev BIGINT NOT NULL DEFAULT 0,
    created_at BIGINT NOT NULL
);
INSERT INTO "projects" VALUES('prj_pe7sDBxlLtBqXN-7TrKnyA','Development',1,1795000000000);
CREATE TABLE rate_limits (
    bucket TEXT PRIMARY KEY,
    window_start BIGINT NOT NULL,
    hits BIGINT NOT NULL
);
INSERT INTO "rate_limits" VALUES('start-id:c47af086aba0e8da2d53b4e159cba307967d480010a7187036b852b739c5b2fe:12ca17b49af2289436f303e0166030a21e525d266e209267433801a8fd4071a0',1795000000000,9);
INSERT INTO "rate_limits" VALUES('start-id:c47af086aba0e8da2d53b4e159cba307967d480010a7187036b852b739c5b2fe',1795000000000,9);
INSERT INTO "rate_limits" VALUES('start-ip:12ca17b49af2289436f303e0166030a21e525d266e209267433801a8fd4071a0',1795000000000,17);
INSERT INTO "rate_limits" VALUES('send-id:c47af086aba0e8da2d53b4e159cba307967d480010a7187036b852b739c5b2fe:12ca17b49af2289436f303e0166030a21e525d266e209267433801a8fd4071a0',1795000000000,2);
INSERT INTO "rate_limits" VALUES('send-id:c47af086aba0e8da2d53b4e159cba307967d480010a7187036b852b739c5b2fe',1795000000000,2);
INSERT INTO "rate_limits" VALUES('send-ip:12ca17b49af2289436f303e0166030a21e525d266e209267433801a8fd4071a0',1795000000000,8);
INSERT INTO "rate_limits" VALUES('check-id:c47af086aba0e8da2d53b4e159cba307967d480010a7187036b852b739c5b2fe:12ca17b49af2289436f303e0166030a21e525d266e209267433801a8fd4071a0',1795000000000,1);
INSERT INTO "rate_limits" VALUES('check-id:c47af086aba0e8da2d53b4e159cba307967d480010a7187036b852b739c5b2fe',1795000000000,1);
INSERT INTO "rate_limits" VALUES('check-ip:12ca17b49af2289436f303e0166030a21e525d266e209267433801a8fd4071a0',1795000000000,16);
INSERT INTO "rate_limits" VALUES('pw-id:18ce853c7daafae4dfe4fd81c366b53313534c07b6dbecc175bf118f35ae6751:12ca17b49af2289436f303e0166030a21e525d266e209267433801a8fd4071a0',1795000000000,5);
INSERT INTO "rate_limits" VALUES('pw-id:18ce853c7daafae4dfe4fd81c366b53313534c07b6dbecc175bf118f35ae6751',1795000000000,5);
INSERT INTO "rate_limits" VALUES('start-id:fb9b2ec8b8b26107839e4498a017576c4070e2a311141e55601afc46e0621bb5:12ca17b49af2289436f303e0166030a21e525d266e209267433801a8fd4071a0',1795000031000,3);
INSERT INTO "rate_limits" VALUES('start-id:fb9b2ec8b8b26107839e4498a017576c4070e2a311141e55601afc46e0621bb5',1795000031000,3);
INSERT INTO "rate_limits" VALUES('send-id:fb9b2ec8b8b26107839e4498a017576c4070e2a311141e55601afc46e0621bb5:12ca17b49af2289436f303e0166030a21e525d266e209267433801a8fd4071a0',1795000031000,2);
INSERT INTO "rate_limits" VALUES('send-id:fb9b2ec8b8b26107839e4498a017576c4070e2a311141e55601afc46e0621bb5',1795000031000,2);
INSERT INTO "rate_limits" VALUES('check-id:fb9b2ec8b8b26107839e4498a017576c4070e2a311141e55601afc46e0621bb5:12ca17b49af2289436f303e0166030a21e525d266e209267433801a8fd4071a0',1795000031000,1);
INSERT INTO "rate_limits" VALUES('check-id:fb9b2ec8b8b26107839e4498a017576c4070e2a311141e55601afc46e0621bb5',1795000031000,1);
INSERT INTO "rate_limits" VALUES('pw-id:39b2b73b1fb787397c71e237320188d631bcff3868da25ca0037b6ccd36fe519:12ca17b49af2289436f303e0166030a21e525d266e209267433801a8fd4071a0',1795000031000,1);
INSERT INTO "rate_limits" VALUES('pw-id:39b2b73b1fb787397c71e237320188d631bcff3868da25ca0037b6ccd36fe519',1795000031000,1);
INSERT INTO "rate_limits" VALUES('start-id:cfb2ee748fdac62fb93a85cac15cf0f606bcf3b11d262abf215b9d235ab4e626:12ca17b49af2289436f303e0166030a21e525d266e209267433801a8fd4071a0',1795000062000,3);
INSERT INTO "rate_limits" VALUES('start-id:cfb2ee748fdac62fb93a85cac15cf0f606bcf3b11d262abf215b9d235ab4e626',1795000062000,3);
INSERT INTO "rate_limits" VALUES('send-id:cfb2ee748fdac62fb93a85cac15cf0f606bcf3b11d262abf215b9d235ab4e626:12ca17b49af2289436f303e0166030a21e525d266e209267433801a8fd4071a0',1795000062000,2);
INSERT INTO "rate_limits" VALUES('send-id:cfb2ee748fdac62fb93a85cac15cf0f606bcf3b11d262abf215b9d235ab4e626',1795000062000,2);
INSERT INTO "rate_limits" VALUES('check-id:cfb2ee748fdac62fb93a85cac15cf0f606bcf3b11d262abf215b9d235ab4e626:12ca17b49af2289436f303e0166030a21e525d266e209267433801a8fd4071a0',1795000062000,1);
INSERT INTO "rate_limits" VALUES('check-id:cfb2ee748fdac62fb93a85cac15cf0f606bcf3b11d262abf215b9d235ab4e626',1795000062000,1);
INSERT INTO "rate_limits" VALUES('pw-id:52a3d25e6ac11b735c5647785bdef3ca61fbec2afc7aa951b2e72f616a231833:12ca17b49af2289436f303e0166030a21e525d266e209267433801a8fd4071a0',1795000093000,2);
INSERT INTO "rate_limits" VALUES('pw-id:52a3d25e6ac11b735c5647785bdef3ca61fbec2afc7aa951b2e72f616a231833',1795000093000,2);
INSERT INTO "rate_limits" VALUES('start-id:ff7ca7dea149c6c4c0929e2835e4fe9aab15379973b7c1a0e37d2ab9a6316198:12ca17b49af2289436f303e0166030a21e525d266e209267433801a8fd4071a0',1795000093000,1);
INSERT INTO "rate_limits" VALUES('start-id:ff7ca7dea149c6c4c0929e2835e4fe9aab15379973b7c1a0e37d2ab9a6316198',1795000093000,1);
INSERT INTO "rate_limits" VALUES('send-id:ff7ca7dea149c6c4c0929e2835e4fe9aab15379973b7c1a0e37d2ab9a6316198:12ca17b49af2289436f303e0166030a21e525d266e209267433801a8fd4071a0',1795000093000,1);
INSERT INTO "rate_limits" VALUES('send-id:ff7ca7dea149c6c4c0929e2835e4fe9aab15379973b7c1a0e37d2ab9a6316198',1795000093000,1);
INSERT INTO "rate_limits" VALUES('check-id:ff7ca7dea149c6c4c0929e2835e4fe9aab15379973b7c1a0e37d2ab9a6316198:12ca17b49af2289436f303e0166030a21e525d266e209267433801a8fd4071a0',1795000093000,1);
INSERT INTO "rate_limits" VALUES('check-id:ff7ca7dea149c6c4c0929e2835e4fe9aab15379973b7c1a0e37d2ab9a6316198',1795000093000,1);
INSERT INTO "rate_limits" VALUES('start-id:fbf2d6bdd72afa679682b8aac2860d422214f7490695f307ba52b2cae1e3b47b:12ca17b49af2289436f303e0166030a21e525d266e209267433801a8fd4071a0',1795000093000,1);
INSERT INTO "rate_limits" VALUES('start-id:fbf2d6bdd72afa679682b8aac2860d422214f7490695f307ba52b2cae1e3b47b',1795000093000,1);
INSERT INTO "rate_limits" VALUES('send-id:fbf2d6bdd72afa679682b8aac2860d422214f7490695f307ba52b2cae1e3b47b:12ca17b49af2289436f303e0166030a21e525d266e209267433801a8fd4071a0',1795000093000,1);
INSERT INTO "rate_limits" VALUES('send-id:fbf2d6bdd72afa679682b8aac2860d422214f7490695f307ba52b2cae1e3b47b',1795000093000,1);
INSERT INTO "rate_limits" VALUES('check-id:fbf2d6bdd72afa679682b8aac2860d422214f7490695f307ba52b2cae1e3b47b:12ca17b49af2289436f303e0166030a21e525d266e209267433801a8fd4071a0',1795000093000,1);
INSERT INTO "rate_limits" VALUES('check-id:fbf2d6bdd72afa679682b8aac2860d422214f7490695f307ba52b2cae1e3b47b',1795000093000,1);
INSERT INTO "rate_limits" VALUES('check-id:39b2b73b1fb787397c71e237320188d631bcff3868da25ca0037b6ccd36fe519:12ca17b49af2289436f303e0166030a21e525d266e209267433801a8fd4071a0',1795000093000,1);
INSERT INTO "rate_limits" VALUES('check-id:39b2b73b1fb787397c71e237320188d631bcff3868da25ca0037b6ccd36fe519',1795000093000,1);
INSERT INTO "rate_limits" VALUES('check-id:18ce853c7daafae4dfe4fd81c366b53313534c07b6dbecc175bf118f35ae6751:12ca17b49af2289436f303e0166030a21e525d266e209267433801a8fd4071a0',1795000093000,2);
INSERT INTO "rate_limits" VALUES('check-id:18ce853c7daafae4dfe4fd81c366b53313534c07b6dbecc175bf118f35ae6751',1795000093000,2);
CREATE TABLE refresh_tokens (
    id TEXT PRIMARY KEY,
    token_hash TEXT NOT NULL UNIQUE,
    application_id TEXT NOT NULL REFERENCES applications(id),
    user_id TEXT NOT NULL REFERENCES users(id),
    session_id TEXT NOT NULL REFERENCES sessions(id),
    authorization_code_hash TEXT,
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    revoked_at BIGINT
, family_id TEXT, scope TEXT NOT NULL DEFAULT 'openid email offline_access', family_expires_at BIGINT, rotated_at BIGINT, successor_id TEXT, dpop_jkt TEXT, answered_at BIGINT);
INSERT INTO "refresh_tokens" VALUES('rt_K049cQlEpI6F0p-J5UlPGw','029079b3808901673c011038543430011eae1c06de237ceda6416e4b822a1414','app_X3fjWyYjSQaJMFO1dAn3qQ','usr_FnPQMSNzfFPeY2-Ff9MELA','ses_bjO_bG0ec-2g1UaIwmcvag','dc63e56bd40c950aa638019b640c04e1875c5f288f19df6a4a4a59c9ba98b063',1795000031000,1796209631000,NULL,'rt_K049cQlEpI6F0p-J5UlPGw','openid email offline_access',1797592031000,NULL,NULL,NULL,NULL);
INSERT INTO "refresh_tokens" VALUES('rt_Fttemin1NLd8-AGurZy6hA','6fefc5f26bb66932ee2942fe941e07f8e43808d2a66bec36cdddf6561c13c07c','app_X3fjWyYjSQaJMFO1dAn3qQ','usr_LwVtr72ovuyu0BI_3vA0Xg','ses_9VLdIrqoQok-RpAr7iQkpw','755c113cb6b0753ea6698598321310773fb9783439fc06d14afe3d2498de6659',1795000124000,1796209724000,NULL,'rt_Fttemin1NLd8-AGurZy6hA','openid email offline_access',1797592124000,NULL,NULL,NULL,NULL);
INSERT INTO "refresh_tokens" VALUES('rt_rTy3bgnOiF_cwPRy9TPTfw','bf402f2aec2022be2541e6187018f7d8f4c69a637c1ea98ef71be1786bb9e836','app_X3fjWyYjSQaJMFO1dAn3qQ','usr_LwVtr72ovuyu0BI_3vA0Xg','ses_G7UN0Oyy1h2Ih8cXEMqq3Q','a95fdcb0b8646e47bf946fd92bd65537a2b7706d3858b6b2794a9d24169610ee',1795000155000,1796209755000,NULL,'rt_rTy3bgnOiF_cwPRy9TPTfw','openid email offline_access',1797592155000,NULL,NULL,NULL,NULL);
CREATE TABLE registration_tokens (
    token_hash TEXT PRIMARY KEY,
    template_application_id TEXT NOT NULL REFERENCES applications(id),
    created_at BIGINT NOT NULL,
    expires_at BIGINT
);
CREATE TABLE revoked_access_tokens (
    jti TEXT PRIMARY KEY,
    expires_at BIGINT NOT NULL,
    revoked_at BIGINT NOT NULL
);
CREATE TABLE server_secrets (
    name TEXT PRIMARY KEY,
    value TEXT NOT NULL,
    created_at BIGINT NOT NULL
);
INSERT INTO "server_secrets" VALUES('otp_hmac_key','Z6qTpZG4BlA+j1Az81umilFnPVl89QNdVFo3CGBIcHk=',1795000000000);
INSERT INTO "server_secrets" VALUES('refresh_token_key','V0AgSc923SormuaocsHkQuWr+PM1PYRb/pv7Fm8x4gI=',1795000000000);
INSERT INTO "server_secrets" VALUES('dpop_nonce_key','lEOkrLlT2i+PuOCOUC6Eu75EAkB7YXunv2CsDMhNMlU=',1795000000000);
INSERT INTO "server_secrets" VALUES('client_secret_key','R3RA1paMYJbtl2iKTSKx8KgJbuMh+qhlHwKtGcus4aM=',1795000000000);
INSERT INTO "server_secrets" VALUES('admin_token_hash','b3e5c0157662fb740f9d7f74e567ae252aeef9452e113e4f0b7e947a2533dac0',1795000000000);
INSERT INTO "server_secrets" VALUES('sealed_secret_key','ycrqdFQCK62Grd2mZNwI/ZJFB/uUGGrbxnvuUDsuMUg=',1795000000000);
CREATE TABLE sessions (
    id TEXT PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES users(id),
    application_id TEXT NOT NULL REFERENCES applications(id),
    amr TEXT NOT NULL,
    auth_time BIGINT NOT NULL,
    created_at BIGINT NOT NULL,
    revoked_at BIGINT
, client_address_hash TEXT);
INSERT INTO "sessions" VALUES('ses_8mN78TNqqyRa-i7XZvvYVQ','usr_LwVtr72ovuyu0BI_3vA0Xg','app_X3fjWyYjSQaJMFO1dAn3qQ','otp pwd',1795000000000,1795000000000,NULL,'12ca17b49af2289436f303e0166030a21e525d266e209267433801a8fd4071a0');
INSERT INTO "sessions" VALUES('ses_8FtHwEm-Vqen6XTbCealXg','usr_LwVtr72ovuyu0BI_3vA0Xg','app_X3fjWyYjSQaJMFO1dAn3qQ','pwd otp mfa',1795000000000,1795000000000,NULL,'12ca17b49af2289436f303e0166030a21e525d266e209267433801a8fd4071a0');
INSERT INTO "sessions" VALUES('ses_Rx353LhX4zJK-13o4cNyXQ','usr_FnPQMSNzfFPeY2-Ff9MELA','app_X3fjWyYjSQaJMFO1dAn3qQ','otp pwd',1795000031000,1795000031000,NULL,'12ca17b49af2289436f303e0166030a21e525d266e209267433801a8fd4071a0');
INSERT INTO "sessions" VALUES('ses_bjO_bG0ec-2g1UaIwmcvag','usr_FnPQMSNzfFPeY2-Ff9MELA','app_X3fjWyYjSQaJMFO1dAn3qQ','pwd otp mfa',1795000031000,1795000031000,NULL,'12ca17b49af2289436f303e0166030a21e525d266e209267433801a8fd4071a0');
INSERT INTO "sessions" VALUES('ses_K_-fM5L-1BpbUUxY1fHslw','usr_vl5djfwDP6K4dtPuY90UxA','app_X3fjWyYjSQaJMFO1dAn3qQ','otp pwd',1795000062000,1795000062000,NULL,'12ca17b49af2289436f303e0166030a21e525d266e209267433801a8fd4071a0');
INSERT INTO "sessions" VALUES('ses_9VLdIrqoQok-RpAr7iQkpw','usr_LwVtr72ovuyu0BI_3vA0Xg','app_X3fjWyYjSQaJMFO1dAn3qQ','pwd otp mfa',1795000093000,1795000093000,NULL,'12ca17b49af2289436f303e0166030a21e525d266e209267433801a8fd4071a0');
INSERT INTO "sessions" VALUES('ses_G7UN0Oyy1h2Ih8cXEMqq3Q','usr_LwVtr72ovuyu0BI_3vA0Xg','app_X3fjWyYjSQaJMFO1dAn3qQ','pwd otp mfa',1795000124000,1795000124000,NULL,'12ca17b49af2289436f303e0166030a21e525d266e209267433801a8fd4071a0');
CREATE TABLE signing_keys (
    kid TEXT PRIMARY KEY,
    algorithm TEXT NOT NULL,
    private_key TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    retired_at BIGINT
);
INSERT INTO "signing_keys" VALUES('rk9MBifHu-bR6ecA8XXYjGpmMaWoFOvX-zstso0A9dI','ES256','HcMH7VVVPWmgoZTCETi/Xy9yU6dqU3wVkWbnEeCPXUY=',1795000000000,NULL);
CREATE TABLE start_tokens (
    token_hash TEXT PRIMARY KEY,
    application_id TEXT NOT NULL REFERENCES applications(id),
    flow_type TEXT NOT NULL,
    identifier TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    used_at BIGINT
);
CREATE TABLE trusted_devices (
    id TEXT PRIMARY KEY,
    user_id TEXT NOT NULL,
    application_id TEXT NOT NULL,
    public_key TEXT NOT NULL,
    key_thumbprint TEXT NOT NULL,
    name TEXT NOT NULL,
    user_agent TEXT,
    hardware_backed BIGINT NOT NULL,
    created_at BIGINT NOT NULL,
    last_used_at BIGINT,
    trusted_until BIGINT NOT NULL,
    revoked_at BIGINT
);
INSERT INTO "trusted_devices" VALUES('dev_WoFwLI3dNrUis2VK_A3Uuw','usr_FnPQMSNzfFPeY2-Ff9MELA','app_X3fjWyYjSQaJMFO1dAn3qQ','{"alg":"ES256","x":"gjA0vZFccLJ5HdacJBFQab0ta_mQ4-pZqFxxrsKhxM4","y":"b1H62gNuQHwufl_ieVMFNpQubI8RwHZ6dyl9gOrZJrU","use":"sig","kid":"bni5IlQ9t-8yidqa7zbnsfJ10jPDmeADH3EqhjGDwAU","crv":"P-256","kty":"EC"}','bni5IlQ9t-8yidqa7zbnsfJ10jPDmeADH3EqhjGDwAU','Recorded device','keyway-swift/0.1.0 (Linux)',0,1795000031000,1795000093000,1797592031000,NULL);
CREATE TABLE trusted_issuers (
    project_id TEXT NOT NULL REFERENCES projects(id),
    issuer TEXT NOT NULL,
    audience TEXT NOT NULL,
    jwks TEXT,
    jwks_url TEXT,
    link_by_email BIGINT NOT NULL,
    create_users BIGINT NOT NULL,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (project_id, issuer)
);
CREATE TABLE user_profiles (
    user_id TEXT PRIMARY KEY REFERENCES users(id),
    data TEXT NOT NULL,
    updated_at BIGINT NOT NULL
);
INSERT INTO "user_profiles" VALUES('usr_LwVtr72ovuyu0BI_3vA0Xg','{"displayName":"ann@example.com"}',1795000000000);
INSERT INTO "user_profiles" VALUES('usr_FnPQMSNzfFPeY2-Ff9MELA','{"displayName":"bob@example.com"}',1795000031000);
INSERT INTO "user_profiles" VALUES('usr_vl5djfwDP6K4dtPuY90UxA','{"displayName":"carl@example.com"}',1795000062000);
CREATE TABLE users (
    id TEXT PRIMARY KEY,
    project_id TEXT NOT NULL REFERENCES projects(id),
    email TEXT NOT NULL,
    email_verified BIGINT NOT NULL DEFAULT 0,
    created_at BIGINT NOT NULL, blocked_at BIGINT, phone TEXT, phone_verified BIGINT NOT NULL DEFAULT 0, password_hash TEXT, totp_secret TEXT, totp_last_counter BIGINT,
    UNIQUE (project_id, email)
);
INSERT INTO "users" VALUES('usr_LwVtr72ovuyu0BI_3vA0Xg','prj_pe7sDBxlLtBqXN-7TrKnyA','ann@example.com',1,1795000000000,NULL,NULL,0,'$scrypt$ln=12,r=8,p=1$mlWKpTWJ3GoQ0ZxaR9mOmg$DMbQMGtaLvaNgDjs+xqvGpK8Xc98uHz8j5KgbIqNIIE','v1.BVCodR3YgO9G6-QxUw3Dhl3ZgBXmGxqjTuuczCar8u2urE28c65FCwslHricBGo2',59833337);
INSERT INTO "users" VALUES('usr_FnPQMSNzfFPeY2-Ff9MELA','prj_pe7sDBxlLtBqXN-7TrKnyA','bob@example.com',1,1795000031000,NULL,NULL,0,'$scrypt$ln=12,r=8,p=1$0VoOtHGeRdGG366Fa1cQJA$Q9iL3UeCU97XA8dmoaj56WZ+JXX4XX256ESmapII0FY','v1.XceGsaBnku1Xdp59RtAdRyS_ozrJ1Jl0JM3Xdu1JOScYBUwepkh60ZJAYePPRuqH',59833334);
INSERT INTO "users" VALUES('usr_vl5djfwDP6K4dtPuY90UxA','prj_pe7sDBxlLtBqXN-7TrKnyA','carl@example.com',1,1795000062000,NULL,NULL,0,'$scrypt$ln=12,r=8,p=1$Z20FKHOzAkWyPOzkLvxolg$2J/QX8bUpZ8Yagaomc7sn/FjHcLzbjkCYDCuXNLAG8E',NULL,NULL);
CREATE INDEX flows_expires_at ON flows (expires_at);
CREATE INDEX authorization_codes_expires_at ON authorization_codes (expires_at);
CREATE INDEX refresh_tokens_code ON refresh_tokens (authorization_code_hash);
CREATE INDEX refresh_tokens_family ON refresh_tokens (family_id);
CREATE INDEX refresh_tokens_family_expires_at ON refresh_tokens (family_expires_at);
CREATE INDEX revoked_access_tokens_expires_at ON revoked_access_tokens (expires_at);
CREATE INDEX sessions_user ON sessions (user_id);
CREATE INDEX refresh_tokens_user ON refresh_tokens (user_id);
CREATE INDEX dpop_proofs_expires_at ON dpop_proofs (expires_at);
CREATE INDEX invite_codes_expires_at ON invite_codes (expires_at);
CREATE INDEX start_tokens_expires_at ON start_tokens (expires_at);
CREATE INDEX delivery_outbox_due ON delivery_outbox (status, next_attempt_at);
CREATE INDEX delivery_outbox_dead ON delivery_outbox (project_id, status);
CREATE UNIQUE INDEX users_project_phone ON users (project_id, phone);
CREATE INDEX sessions_user_address ON sessions (user_id, client_address_hash);
CREATE INDEX trusted_devices_user ON trusted_devices (user_id, application_id);
CREATE INDEX approval_requests_user ON approval_requests (user_id, state, expires_at);
CREATE INDEX device_request_signatures_expires_at ON device_request_signatures (expires_at);
COMMIT;
