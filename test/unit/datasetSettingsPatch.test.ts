import { applySettingsPatch, DatasetSettingsError, parseSettingsPatch } from '../../client/datasetSettings';

test('a patch replaces the sections it names, removes those set to null and fills defaults', () => {
  const current = { chunking: { strategy: 'qa' as const, review: 'auto' as const } };
  expect(applySettingsPatch(current, {})).toEqual(current);
  expect(applySettingsPatch(current, { chunking: null })).toEqual({});
  expect(applySettingsPatch({}, parseSettingsPatch({ chunking: {} }))).toEqual({
    chunking: { strategy: 'auto', review: 'auto' },
  });
});

test('an invalid patch names the field that is wrong', () => {
  expect(() => parseSettingsPatch({ chunking: { parameters: { childTokens: 4 } } })).toThrow(DatasetSettingsError);
  expect(() => parseSettingsPatch({ chunking: { parameters: { childTokens: 4 } } })).toThrow(
    /chunking\.parameters\.childTokens/,
  );
  expect(() => parseSettingsPatch({ unknownSection: {} })).toThrow(/unrecognized/i);
  expect(() => parseSettingsPatch('chunking')).toThrow(DatasetSettingsError);
});
