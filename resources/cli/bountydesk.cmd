@echo off
rem `bountydesk` on Windows: the installed app in its command-line mode (no window).
"%~dp0..\..\Bounty Desk.exe" --cli %*
exit /b %ERRORLEVEL%
