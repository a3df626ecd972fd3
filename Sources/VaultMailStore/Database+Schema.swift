import GRDB

extension AppDatabase {
    /// The versioned schema. Never edit a registered migration: add a new one.
    static var migrator: DatabaseMigrator { migrator(searchProgress: nil) }

    /// The migrator, reporting how far indexing existing mail for search has come.
    static func migrator(searchProgress: SearchIndexProgress?) -> DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-mail", migrate: createMailSchema)
        migrator.registerMigration("v2-notification-decisions", migrate: createNotificationDecisions)
        migrator.registerMigration("v3-message-references", migrate: createMessageReferences)
        migrator.registerMigration("v4-outbox", migrate: createOutbox)
        migrator.registerMigration("v5-unread-threads", migrate: createUnreadThreads)
        migrator.registerMigration("v6-search") { db in try createSearchIndex(db, progress: searchProgress) }
        migrator.registerMigration("v7-ai", migrate: createAISchema)
        migrator.registerMigration("v8-sync-window", migrate: createFolderHistoryWindow)
        migrator.registerMigration("v9-summaries", migrate: createSummarySchema)
        migrator.registerMigration("v10-message-identity", migrate: createMessageIdentity)
        migrator.registerMigration("v11-chunk-embeddings", migrate: createChunkEmbeddings)
        migrator.registerMigration("v12-drafts-uncounted") { db in
            // Issue 29: a draft is no longer one of its conversation's messages (count, date, snippet, senders).
            try db.refreshThreads(try String.fetchAll(db, sql: "SELECT DISTINCT threadId FROM email WHERE isDraft = 1 OR sendState = 'draft'"))
        }
        migrator.registerMigration("v13-pending-changes", migrate: createPendingChanges)
        migrator.registerMigration("v14-subscriptions", migrate: createSubscriptions)
        migrator.registerMigration("v15-tracker-tally", migrate: createTrackerTally)
        migrator.registerMigration("v16-snooze", migrate: createSnooze)
        // Issue 31: stems, `_` inside words. v6 creates the current index; a store made before
        // has its index made again, once, with progress.
        migrator.registerMigration("v17-search-stems") { db in try recreateSearchIndex(db, progress: searchProgress) }
        migrator.registerMigration("v18-pgp", migrate: createAutocryptPeers)
        // Issue 33: a scheduled message's send time, apart from the retry time.
        migrator.registerMigration("v19-send-later") { db in
            try db.execute(sql: "ALTER TABLE outgoing ADD COLUMN sendAt INTEGER")
            // The claim keyword this store puts on the scheduled copy on the server (random per queueing).
            try db.execute(sql: "ALTER TABLE outgoing ADD COLUMN claimKey TEXT")
        }
        return migrator
    }

    /// Accounts, folders, threads, emails, their links, attachments, raw sources and settings.
    ///
    /// Two things are kept by triggers so the hot queries read an index instead of joining
    /// the whole mailbox:
    /// - `email.inboxLinks`: how many inbox folders the email is linked to, so the badge
    ///   (NOTIF-16) counts a partial index of unread inbox mail;
    /// - `threadFolder`: which threads have mail in which folder, with the thread's
    ///   `latestDate`, so a page of any folder is a range scan (AC-U-16's 3-step join,
    ///   materialized).
    /// Dates are whole milliseconds since 1970 (INTEGER), so cursors compare exactly.
    private static func createMailSchema(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE account (
                id TEXT PRIMARY KEY NOT NULL,
                name TEXT NOT NULL UNIQUE,
                email TEXT NOT NULL,
                displayName TEXT,
                imapHost TEXT NOT NULL,
                imapPort INTEGER NOT NULL,
                smtpHost TEXT NOT NULL,
                smtpPort INTEGER NOT NULL,
                security TEXT NOT NULL,
                username TEXT NOT NULL,
                authMethod TEXT NOT NULL,
                credentialCommand TEXT,
                caFile TEXT,
                syncWindowDays INTEGER NOT NULL,
                isActive INTEGER NOT NULL,
                createdAt INTEGER NOT NULL
            );

            CREATE TABLE folder (
                id TEXT PRIMARY KEY NOT NULL,
                accountId TEXT NOT NULL REFERENCES account(id) ON DELETE CASCADE,
                name TEXT NOT NULL,
                path TEXT NOT NULL,
                folderType TEXT NOT NULL,
                uidValidity INTEGER,
                lastSyncedUID INTEGER,
                highestModSeq INTEGER,
                totalCount INTEGER NOT NULL DEFAULT 0,
                unreadCount INTEGER NOT NULL DEFAULT 0,
                lastSyncDate INTEGER,
                UNIQUE (accountId, path)
            );
            CREATE INDEX folder_by_type ON folder(folderType, accountId);

            CREATE TABLE thread (
                id TEXT PRIMARY KEY NOT NULL,
                accountId TEXT NOT NULL REFERENCES account(id) ON DELETE CASCADE,
                subject TEXT NOT NULL,
                latestDate INTEGER NOT NULL,
                messageCount INTEGER NOT NULL DEFAULT 0,
                unreadCount INTEGER NOT NULL DEFAULT 0,
                isStarred INTEGER NOT NULL DEFAULT 0,
                hasAttachments INTEGER NOT NULL DEFAULT 0,
                snippet TEXT,
                participants TEXT,
                aiCategory TEXT
            );
            CREATE INDEX thread_by_account ON thread(accountId);

            CREATE TABLE email (
                id TEXT PRIMARY KEY NOT NULL,
                accountId TEXT NOT NULL REFERENCES account(id) ON DELETE CASCADE,
                threadId TEXT NOT NULL REFERENCES thread(id) ON DELETE CASCADE,
                messageId TEXT NOT NULL,
                inReplyTo TEXT,
                "references" TEXT,
                fromAddress TEXT NOT NULL,
                fromName TEXT,
                toAddresses TEXT NOT NULL DEFAULT '[]',
                ccAddresses TEXT NOT NULL DEFAULT '[]',
                bccAddresses TEXT NOT NULL DEFAULT '[]',
                subject TEXT NOT NULL,
                bodyPlain TEXT,
                bodyHTML TEXT,
                snippet TEXT,
                dateReceived INTEGER NOT NULL,
                dateSent INTEGER,
                isRead INTEGER NOT NULL DEFAULT 0,
                isStarred INTEGER NOT NULL DEFAULT 0,
                isDraft INTEGER NOT NULL DEFAULT 0,
                spamFlagged INTEGER NOT NULL DEFAULT 0,
                aiCategory TEXT,
                sendState TEXT NOT NULL DEFAULT 'none',
                sizeBytes INTEGER NOT NULL DEFAULT 0,
                hasAttachments INTEGER NOT NULL DEFAULT 0,
                inboxLinks INTEGER NOT NULL DEFAULT 0
            );
            CREATE INDEX email_by_thread ON email(threadId, dateReceived);
            CREATE INDEX email_by_message_id ON email(accountId, messageId);
            CREATE INDEX email_inbox_unread ON email(accountId) WHERE isRead = 0 AND inboxLinks > 0;
            CREATE INDEX email_outbox ON email(accountId, dateReceived)
                WHERE sendState IN ('queued', 'sending', 'failed');

            CREATE TABLE emailFolder (
                emailId TEXT NOT NULL REFERENCES email(id) ON DELETE CASCADE,
                folderId TEXT NOT NULL REFERENCES folder(id) ON DELETE CASCADE,
                uid INTEGER,
                PRIMARY KEY (emailId, folderId)
            ) WITHOUT ROWID;
            CREATE INDEX emailFolder_by_folder ON emailFolder(folderId, uid);

            CREATE TABLE threadFolder (
                folderId TEXT NOT NULL REFERENCES folder(id) ON DELETE CASCADE,
                threadId TEXT NOT NULL REFERENCES thread(id) ON DELETE CASCADE,
                folderType TEXT NOT NULL,
                latestDate INTEGER NOT NULL,
                emailCount INTEGER NOT NULL,
                PRIMARY KEY (folderId, threadId)
            ) WITHOUT ROWID;
            CREATE INDEX threadFolder_page ON threadFolder(folderId, latestDate DESC, threadId DESC);
            CREATE INDEX threadFolder_unified ON threadFolder(folderType, latestDate DESC, threadId DESC);
            CREATE INDEX threadFolder_by_thread ON threadFolder(threadId);

            CREATE TABLE attachment (
                id TEXT PRIMARY KEY NOT NULL,
                emailId TEXT NOT NULL REFERENCES email(id) ON DELETE CASCADE,
                filename TEXT NOT NULL,
                mimeType TEXT NOT NULL,
                sizeBytes INTEGER NOT NULL,
                contentId TEXT,
                isInline INTEGER NOT NULL DEFAULT 0,
                partId TEXT
            );
            CREATE INDEX attachment_by_email ON attachment(emailId);

            CREATE TABLE emailSource (
                emailId TEXT PRIMARY KEY NOT NULL REFERENCES email(id) ON DELETE CASCADE,
                raw BLOB NOT NULL
            );

            CREATE TABLE setting (
                key TEXT PRIMARY KEY NOT NULL,
                value BLOB NOT NULL
            );

            CREATE TABLE accountSetting (
                accountId TEXT NOT NULL REFERENCES account(id) ON DELETE CASCADE,
                key TEXT NOT NULL,
                value BLOB NOT NULL,
                PRIMARY KEY (accountId, key)
            ) WITHOUT ROWID;
            """)
        try createMembershipTriggers(db)
    }

    /// The notification engine's decisions, one per email (the durable dedup ledger and the
    /// answer to "why was I (not) notified?"). `seq` orders them and bounds the table; it is
    /// renumbered when a decision is replaced, so the newest decision has the highest `seq`.
    private static func createNotificationDecisions(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE notificationDecision (
                emailId TEXT PRIMARY KEY NOT NULL,
                accountId TEXT NOT NULL REFERENCES account(id) ON DELETE CASCADE,
                threadId TEXT NOT NULL,
                decidedAt INTEGER NOT NULL,
                outcome TEXT NOT NULL,
                rule TEXT NOT NULL,
                detail TEXT,
                subject TEXT NOT NULL,
                fromAddress TEXT NOT NULL,
                seq INTEGER
            );
            CREATE UNIQUE INDEX notificationDecision_seq ON notificationDecision(seq);
            CREATE INDEX notificationDecision_account ON notificationDecision(accountId);
            CREATE TRIGGER notificationDecision_number AFTER INSERT ON notificationDecision
            WHEN NEW.seq IS NULL BEGIN
                UPDATE notificationDecision SET seq = (SELECT IFNULL(MAX(seq), 0) + 1 FROM notificationDecision)
                WHERE emailId = NEW.emailId;
            END;
            CREATE TRIGGER notificationDecision_renumber AFTER UPDATE OF decidedAt ON notificationDecision
            WHEN NEW.seq IS NULL BEGIN
                UPDATE notificationDecision SET seq = (SELECT IFNULL(MAX(seq), 0) + 1 FROM notificationDecision)
                WHERE emailId = NEW.emailId;
            END;
            """)
    }

    /// `threadFolder` also carries whether the thread is unread and its category, kept by
    /// triggers, so a folder's unread conversations per category (the web app's sidebar and
    /// tabs, on every page) are counted from a small partial index.
    private static func createUnreadThreads(_ db: Database) throws {
        try db.execute(sql: """
            ALTER TABLE threadFolder ADD COLUMN isUnread INTEGER NOT NULL DEFAULT 0;
            ALTER TABLE threadFolder ADD COLUMN category TEXT;
            UPDATE threadFolder SET
                isUnread = (SELECT unreadCount > 0 FROM thread WHERE id = threadFolder.threadId),
                category = (SELECT aiCategory FROM thread WHERE id = threadFolder.threadId);
            CREATE INDEX threadFolder_unread ON threadFolder(folderId, category) WHERE isUnread = 1;
            CREATE INDEX threadFolder_unread_type ON threadFolder(folderType, category) WHERE isUnread = 1;

            CREATE TRIGGER threadFolder_insert_state AFTER INSERT ON threadFolder BEGIN
                UPDATE threadFolder SET
                    isUnread = (SELECT unreadCount > 0 FROM thread WHERE id = NEW.threadId),
                    category = (SELECT aiCategory FROM thread WHERE id = NEW.threadId)
                    WHERE folderId = NEW.folderId AND threadId = NEW.threadId;
            END;
            CREATE TRIGGER thread_unread_state AFTER UPDATE OF unreadCount ON thread
            WHEN (OLD.unreadCount > 0) IS NOT (NEW.unreadCount > 0) BEGIN
                UPDATE threadFolder SET isUnread = (NEW.unreadCount > 0) WHERE threadId = NEW.id;
            END;
            CREATE TRIGGER thread_category_state AFTER UPDATE OF aiCategory ON thread
            WHEN OLD.aiCategory IS NOT NEW.aiCategory BEGIN
                UPDATE threadFolder SET category = NEW.aiCategory WHERE threadId = NEW.id;
            END;
            """)
    }

    private static func createMembershipTriggers(_ db: Database) throws {
        try db.execute(sql: """
            -- A new link: count it if the folder is an inbox, and record the thread in the folder.
            CREATE TRIGGER emailFolder_insert AFTER INSERT ON emailFolder BEGIN
                UPDATE email SET inboxLinks = inboxLinks + 1
                    WHERE id = NEW.emailId
                    AND (SELECT folderType FROM folder WHERE id = NEW.folderId) = 'inbox';
                INSERT INTO threadFolder(folderId, threadId, folderType, latestDate, emailCount)
                    SELECT NEW.folderId, e.threadId, f.folderType, t.latestDate, 1
                    FROM email e JOIN thread t ON t.id = e.threadId JOIN folder f ON f.id = NEW.folderId
                    WHERE e.id = NEW.emailId
                    ON CONFLICT(folderId, threadId) DO UPDATE SET emailCount = emailCount + 1;
            END;

            -- A removed link: the reverse.
            CREATE TRIGGER emailFolder_delete AFTER DELETE ON emailFolder BEGIN
                UPDATE email SET inboxLinks = inboxLinks - 1
                    WHERE id = OLD.emailId
                    AND (SELECT folderType FROM folder WHERE id = OLD.folderId) = 'inbox';
                UPDATE threadFolder SET emailCount = emailCount - 1
                    WHERE folderId = OLD.folderId
                    AND threadId = (SELECT threadId FROM email WHERE id = OLD.emailId);
                DELETE FROM threadFolder WHERE folderId = OLD.folderId AND emailCount <= 0;
            END;

            -- Unlink an email before it goes, while its thread is still known.
            CREATE TRIGGER email_delete BEFORE DELETE ON email BEGIN
                DELETE FROM emailFolder WHERE emailId = OLD.id;
            END;

            -- An email moved to another thread (threads merged when a parent arrives late).
            CREATE TRIGGER email_rethread AFTER UPDATE OF threadId ON email
            WHEN OLD.threadId IS NOT NEW.threadId BEGIN
                UPDATE threadFolder SET emailCount = emailCount - 1
                    WHERE threadId = OLD.threadId
                    AND folderId IN (SELECT folderId FROM emailFolder WHERE emailId = NEW.id);
                DELETE FROM threadFolder WHERE threadId = OLD.threadId AND emailCount <= 0;
                INSERT INTO threadFolder(folderId, threadId, folderType, latestDate, emailCount)
                    SELECT ef.folderId, NEW.threadId, f.folderType, t.latestDate, 1
                    FROM emailFolder ef JOIN folder f ON f.id = ef.folderId JOIN thread t ON t.id = NEW.threadId
                    WHERE ef.emailId = NEW.id
                    ON CONFLICT(folderId, threadId) DO UPDATE SET emailCount = emailCount + 1;
            END;

            CREATE TRIGGER thread_latestDate AFTER UPDATE OF latestDate ON thread BEGIN
                UPDATE threadFolder SET latestDate = NEW.latestDate WHERE threadId = NEW.id;
            END;

            -- A folder whose role changed (e.g. SPECIAL-USE learned on a later sync).
            CREATE TRIGGER folder_type AFTER UPDATE OF folderType ON folder
            WHEN OLD.folderType IS NOT NEW.folderType BEGIN
                UPDATE threadFolder SET folderType = NEW.folderType WHERE folderId = NEW.id;
                UPDATE email SET inboxLinks = (
                        SELECT COUNT(*) FROM emailFolder ef JOIN folder f ON f.id = ef.folderId
                        WHERE ef.emailId = email.id AND f.folderType = 'inbox')
                    WHERE id IN (SELECT emailId FROM emailFolder WHERE folderId = NEW.id);
            END;
            """)
    }
}
