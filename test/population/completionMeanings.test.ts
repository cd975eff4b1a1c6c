/**
 * "Completed" means two things (the review: production-mix seed 1, no brakes: 148 runs end `completed`, 151 do
 * their task — 2 sloppy runs completed without doing it, 5 did it but ended trace_end). Each report that shows
 * figures of both kinds (calibrate; project --suggest-cap) says so in one line, with the counts.
 */
import { describe, expect, it } from 'vitest';
import { CompletionMeanings, completionMeaningsLine } from '../../src/population/completionMeanings.js';
import { cli } from '../cli/run.js';

const USES = { completed: 'a completion rate', done: 'false stops' };

describe('"completed" two ways', () => {
  it('counts the runs that complete, those that do their task, and where the two part', () => {
    const m = new CompletionMeanings();
    m.add('completed', { doneAtStep: 3 });
    m.add('completed', {});
    m.add('trace_end', { doneAtStep: 4 });
    m.add('max_steps', { doneAtStep: 9 });
    m.add('trace_end', { doneAtStep: 2 });
    m.add('completed', undefined);
    const counts = m.counts();
    expect(counts).toEqual({ runs: 5, completed: 2, tasksDone: 4, completedNotDone: 1, doneNotCompleted: [{ stopReason: 'trace_end', runs: 2 }, { stopReason: 'max_steps', runs: 1 }] });
    expect(completionMeaningsLine(counts, USES)).toBe(
      '"Completed" two ways (the 5 runs with ground truth, with no brakes): 2 completed (stop reason completed: a completion rate), 4 tasks done (ground truth: false stops): 1 completed without doing the task, 3 did it but ended trace_end 2, max_steps 1.',
    );
    expect(completionMeaningsLine(new CompletionMeanings().counts(), USES)).toBeUndefined();
  });

  it('calibrate and project --suggest-cap say it in one line: 148 completed, 151 tasks done on production-mix', async () => {
    const expected = /148 completed \(stop reason completed: .*?\), 151 tasks done \(ground truth: .*?\): 2 completed without doing the task, 5 did it but ended trace_end\./;
    const calibrate = await cli('calibrate', 'scenarios/production-mix.yaml', '--grid', 'max-repeat=3');
    expect(calibrate.stdout.replace(/\s+/g, ' ')).toMatch(expected);
    const project = await cli('project', 'scenarios/production-mix.yaml', '--preset', 'none', '--suggest-cap', '0.05', '--days', '1', '--trials', '5', '--format', 'json');
    expect(JSON.parse(project.stdout).notes.join('\n')).toMatch(expected);
    const noCap = await cli('project', 'scenarios/production-mix.yaml', '--days', '1', '--trials', '5');
    expect(noCap.stdout).not.toContain('two ways');
  });
});
