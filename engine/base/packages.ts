// The packages only rendering, artwork checks, uploads, schedules or PostgreSQL need, each loaded on
// its first use instead of at start: loaded eagerly they held about 60 MB of an engine's resident
// memory before its first request, though an engine that only keeps and verifies addresses never
// calls them. Types come from `import type`, so nothing here loads a package until it is called.
import type * as PdfLib from 'pdf-lib';
import type Sharp from 'sharp';
import type Handlebars from 'handlebars';
import type PdfKit from 'pdfkit';
import type * as Puppeteer from 'puppeteer-core';
import type BwipJs from 'bwip-js';
import type PgBoss from 'pg-boss';
import type * as CsvParse from 'csv-parse';
import type * as NodeCron from 'node-cron';
import { lazy } from './lazy';

/* eslint-disable @typescript-eslint/no-require-imports -- a require at first use is the point */
export const pdfLib = lazy(() => require('pdf-lib') as typeof PdfLib);
export const sharp = lazy(() => require('sharp') as typeof Sharp);
export const handlebars = lazy(() => require('handlebars') as typeof Handlebars);
export const pdfKit = lazy(() => require('pdfkit') as typeof PdfKit);
export const puppeteer = lazy(() => require('puppeteer-core') as typeof Puppeteer);
export const bwipJs = lazy(() => require('bwip-js') as typeof BwipJs);
export const pgBoss = lazy(() => require('pg-boss') as typeof PgBoss);
export const csvParse = lazy(() => require('csv-parse') as typeof CsvParse);
export const nodeCron = lazy(() => (require('node-cron') as typeof NodeCron).default);
/* eslint-enable @typescript-eslint/no-require-imports */
