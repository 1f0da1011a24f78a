// MediaImport: journal, downloader, agent, inbox, sniffer, archive, tags, library.
