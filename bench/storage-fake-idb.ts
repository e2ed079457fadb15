// Installs fake-indexeddb's globals for the restore benchmark's --node mode.
import 'fake-indexeddb/auto';
